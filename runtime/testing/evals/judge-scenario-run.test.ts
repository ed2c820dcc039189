import { describe, expect, it } from "vitest";
import { defineAgentScenario } from "./define-agent-scenario.js";
import type { EvalCall } from "./eval-report.js";
import { judgeScenarioRun, matchesPartially } from "./judge-scenario-run.js";

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

  it("reads an input predicate, and a predicate that throws as false", () => {
    const picky = defineAgentScenario({ id: "picky", messages: "x", calls: [{ tool: "t", input: (input) => (input as { n: number }).n > 2 }] });
    expect(judgeScenarioRun(picky, { calls: [call("t", { n: 3 })], answer: "" })).toEqual([]);
    expect(judgeScenarioRun(picky, { calls: [call("t", null)], answer: "" })[0]).toMatchObject({ kind: "wrong-input", message: "Call 1: t was called with null, which the scenario's input check refuses." });
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
