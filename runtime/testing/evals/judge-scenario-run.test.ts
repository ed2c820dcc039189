import { describe, expect, it } from "vitest";
import { defineAgentScenario } from "./define-agent-scenario.js";
import type { EvalCall } from "./eval-report.js";
import { judgeScenarioRun, matchesCall, matchesPartially } from "./judge-scenario-run.js";

const call = (tool: string, input: unknown = {}): EvalCall => ({ tool, input, state: "done" });
const scenario = defineAgentScenario({
  id: "buy",
  messages: "Buy socks",
  calls: [{ tool: "go_to", input: { page: "product/socks" } }, { tool: "add_to_cart", input: { quantity: 1 } }, { tool: "place_order" }],
  forbidden: ["delete_account"],
  answer: "ordered",
});
const right = [call("go_to", { page: "product/socks" }), call("add_to_cart", { quantity: 1 }), call("place_order")];

describe("judgeScenarioRun", () => {
  it("passes the expected calls in order, other calls between them allowed, and the answer found case-insensitively", () => {
    expect(judgeScenarioRun(scenario, { calls: [call("get_page"), right[0]!, call("get_cart"), right[1]!, right[2]!], answer: "Socks Ordered." })).toEqual([]);
  });

  it("fails a call to the wrong tool where an expected one was due, naming both", () => {
    const failures = judgeScenarioRun(scenario, { calls: [right[0]!, call("get_cart"), right[2]!], answer: "ordered" });
    expect(failures).toEqual([expect.objectContaining({ kind: "wrong-tool", call: 1, actual: "get_cart, place_order" })]);
    expect(failures[0]!.message).toBe("Call 2: expected add_to_cart, got get_cart, place_order.");
  });

  it("fails the right tool with the wrong input, showing the input", () => {
    const failures = judgeScenarioRun(scenario, { calls: [right[0]!, call("add_to_cart", { quantity: 2 }), right[2]!], answer: "ordered" });
    expect(failures).toEqual([expect.objectContaining({ kind: "wrong-input", call: 1 })]);
    expect(failures[0]!.message).toBe('Call 2: add_to_cart was called with {"quantity":2}, not {"quantity":1}.');
  });

  it("fails a missing call when nothing more was called, and says when nothing was called at all", () => {
    expect(judgeScenarioRun(scenario, { calls: right.slice(0, 2), answer: "ordered" })).toEqual([expect.objectContaining({ kind: "missing-call", call: 2 })]);
    expect(judgeScenarioRun(scenario, { calls: [], answer: "ordered" })[0]!.message).toBe('Call 1: expected go_to; no tool was called.');
  });

  it("fails a forbidden call, the answer, and a run error with its code, each as its own failure", () => {
    expect(judgeScenarioRun(scenario, { calls: [...right, call("delete_account")], answer: "ordered" })).toEqual([expect.objectContaining({ kind: "forbidden-call" })]);
    expect(judgeScenarioRun(scenario, { calls: right, answer: "I could not do that." })).toEqual([expect.objectContaining({ kind: "answer", actual: "I could not do that." })]);
    const failed = judgeScenarioRun(scenario, { calls: right, answer: "", error: { message: "The model could not load.", code: "load_failed" } });
    expect(failed).toEqual([{ kind: "error", code: "load_failed", message: "The run failed (load_failed): The model could not load." }]);
  });

  it("reads an input predicate; one that throws is the site's error with its message, not the model's wrong input", () => {
    const picky = defineAgentScenario({ id: "picky", messages: "x", calls: [{ tool: "t", input: (input) => (input as { n: number }).n > 2 }] });
    expect(judgeScenarioRun(picky, { calls: [call("t", { n: 3 })], answer: "" })).toEqual([]);
    expect(judgeScenarioRun(picky, { calls: [call("t", { n: 1 })], answer: "" })[0]).toMatchObject({ kind: "wrong-input", message: 'Call 1: t was called with {"n":1}, which the scenario\'s input check refuses.' });
    expect(judgeScenarioRun(picky, { calls: [call("t", null)], answer: "" })).toEqual([
      { kind: "site-error", message: expect.stringMatching(/^The scenario's input check for call 1 \(t\) threw: .*null.*\. That is a bug in the scenario "picky", not the model's call: fix the check\.$/) },
    ]);
    // matchesCall alone still reads a throw as no match.
    expect(matchesCall(picky.calls[0]!, call("t", null))).toBe(false);
  });
});

describe("judgeScenarioRun: whose fault", () => {
  it("an answer predicate that throws is the site's error with its message, whatever the model answered", () => {
    const broken = defineAgentScenario({ id: "thanks", messages: "x", answer: (text) => (JSON.parse(text) as { ok: boolean }).ok });
    expect(judgeScenarioRun(broken, { calls: [], answer: "You're welcome." })).toEqual([
      {
        kind: "site-error",
        actual: "You're welcome.",
        message: expect.stringMatching(/^The scenario's answer predicate threw: .*JSON.*\. That is a bug in the scenario "thanks", not the model's answer \("You're welcome\."\): fix the predicate\.$/),
      },
    ]);
  });

  it("a tool double that threw a bug's error (TypeError, ReferenceError…) is the site's error; a plain Error is the tool's answer to the model; a page tool is judged as before", () => {
    const threw: EvalCall = { tool: "add_to_cart", input: { quantity: 1 }, state: "error", error: "Error [tool_failed]: add_to_cart failed: TypeError: cart is not iterable" };
    const run = { calls: [right[0]!, threw, right[2]!], answer: "ordered" };
    expect(judgeScenarioRun(scenario, { ...run, doubles: ["add_to_cart", "place_order"] })).toEqual([
      {
        kind: "site-error",
        code: "tool_failed",
        actual: 'add_to_cart with {"quantity":1}',
        message: 'The tool double add_to_cart threw on {"quantity":1}: TypeError: cart is not iterable. That is a bug in the scenario\'s code, not the model\'s call: fix the double.',
      },
    ]);
    // The Field Store's doubles throw an Error to tell the model it called wrong, as its page tools do: the model's run, judged.
    const told: EvalCall = { tool: "place_order", input: {}, state: "error", error: "Error [tool_failed]: place_order failed: place_order is on the cart page only: go_to cart first." };
    expect(judgeScenarioRun(scenario, { calls: [right[0]!, told], answer: "ordered", doubles: ["add_to_cart", "place_order"] }).map((failure) => failure.kind)).toEqual(["wrong-tool"]);
    expect(judgeScenarioRun(scenario, run)).toEqual([]);
  });

  it("doubles that could not be set up (duplicate_tool) are the site's error, and the model is not judged", () => {
    const failures = judgeScenarioRun(scenario, { calls: [], answer: "", setupError: { message: 'A tool named "add_to_cart" is already registered on this page.', code: "duplicate_tool" } });
    expect(failures).toEqual([{ kind: "site-error", code: "duplicate_tool", message: 'The scenario\'s tool doubles could not be set up (duplicate_tool): A tool named "add_to_cart" is already registered on this page. The model did not run.' }]);
  });

  it("a run that timed out says timeout first, then only its forbidden calls: not missing-call, not the answer", () => {
    const timeout = { message: "The run took over 200 ms and was stopped.", code: "timeout" };
    expect(judgeScenarioRun(scenario, { calls: [], answer: "", error: timeout })).toEqual([
      { kind: "timeout", code: "timeout", message: "Timed out: The run took over 200 ms and was stopped. The model was slow here, not judged wrong; raise evaluateAgent's timeoutMs to let it finish." },
    ]);
    expect(judgeScenarioRun(scenario, { calls: [call("delete_account")], answer: "", error: timeout }).map((failure) => failure.kind)).toEqual(["timeout", "forbidden-call"]);
  });
});

describe("matchesPartially", () => {
  it("matches the keys given, deeply, and arrays exactly", () => {
    expect(matchesPartially({ a: 1, b: { c: 2 } }, { a: 1, b: { c: 2, d: 3 }, e: 4 })).toBe(true);
    expect(matchesPartially({ b: { c: 2 } }, { b: { c: 3 } })).toBe(false);
    expect(matchesPartially({ list: [1, 2] }, { list: [1, 2] })).toBe(true);
    expect(matchesPartially({ list: [1] }, { list: [1, 2] })).toBe(false);
    expect(matchesPartially({ a: 1 }, null)).toBe(false);
  });
});
