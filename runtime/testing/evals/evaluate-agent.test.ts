// @vitest-environment happy-dom
// The evaluation over the real session and page tools (the WebMCP polyfill
// under happy-dom), on scripted adapters: a model's choices are what a
// scripted run replays, so each outcome is known in advance.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { defineWebAgent } from "../../agent/define-web-agent.js";
import { defineWebTool } from "../../core/define-web-tool.js";
import { getModelContext } from "../../core/model-context.js";
import { registerWebTool } from "../../core/register-web-tool.js";
import { installHappyDomWebMCP, resetWebMCP } from "../../core/test-fixtures/happy-dom-webmcp.js";
import type { AgentStreamPart } from "../../session/agent-stream-part.js";
import { createScriptedAdapter } from "../create-scripted-adapter.js";
import { defineAgentScenario } from "./define-agent-scenario.js";
import { diffEvalReports } from "./diff-eval-reports.js";
import { evalRows, formatEvalTable, modelsBelow } from "./eval-rows.js";
import { evaluateAgent } from "./evaluate-agent.js";
import { parseEvalReport } from "./parse-eval-report.js";
import { RUNTIME_VERSION } from "./runtime-version.js";

const agent = defineWebAgent({ id: "shopper", instructions: "You help people shop." });
const added: number[] = [];
const doubles = () => [
  defineWebTool<{ quantity: number }>({
    name: "add_to_cart",
    description: "Adds socks.",
    inputSchema: { type: "object", properties: { quantity: { type: "integer" } }, required: ["quantity"] },
    execute: ({ quantity }) => (added.push(quantity), `Added ${quantity}.`),
  }),
  defineWebTool({ name: "get_cart", description: "The cart.", annotations: { readOnlyHint: true }, execute: () => ({ lines: [] }) }),
  defineWebTool({ name: "place_order", description: "Orders.", annotations: { consequentialHint: true }, execute: () => "Order FS-1001 placed." }),
];
const scenario = defineAgentScenario({
  id: "buy-socks",
  messages: "Buy socks",
  tools: doubles,
  calls: [{ tool: "add_to_cart", input: { quantity: 1 } }, { tool: "place_order" }],
  answer: /ordered/i,
  runs: 2,
});

/** One model step: a call, its usage, or the answer. */
const step = (index: number, parts: AgentStreamPart[]): AgentStreamPart[] => [
  { type: "message-start", messageId: `m${index}` },
  ...parts.map((part) => ("messageId" in part ? { ...part, messageId: `m${index}` } : part)),
  { type: "step-finish", step: index, usage: { promptTokens: 100 + index, outputTokens: 10, timeToFirstTokenMs: 50 + index, decodeTokensPerSecond: 20, repairedCalls: index === 0 ? 1 : 0 } },
];
const callPart = (id: string, name: string, input: unknown): AgentStreamPart => ({ type: "tool-call", messageId: "", id, name, input });
const textPart = (delta: string): AgentStreamPart => ({ type: "text-delta", messageId: "", delta });
const shopping = (quantity: number, tool = "add_to_cart"): AgentStreamPart[] => [
  ...step(0, [callPart("c1", tool, tool === "add_to_cart" ? { quantity } : {})]),
  ...step(1, [callPart("c2", "place_order", {})]),
  ...step(2, [textPart("Your socks are ordered.")]),
  { type: "finish", reason: "stop" },
];
const scripted = (id: string, run: () => AgentStreamPart[]) => createScriptedAdapter({ id, label: id, runs: Array.from({ length: 4 }, () => run) });

beforeEach(() => {
  installHappyDomWebMCP();
  added.length = 0;
});
afterEach(() => resetWebMCP());

describe("evaluateAgent on scripted adapters", () => {
  it("passes the right path and fails the wrong tool and the wrong input, each with its reason, steps and tokens counted", async () => {
    const report = await evaluateAgent({
      agent,
      scenarios: [scenario],
      adapters: [scripted("right", () => shopping(1)), scripted("wrong-tool", () => shopping(1, "get_cart")), scripted("wrong-input", () => shopping(3))],
    });
    expect(report.format).toBe("web-agents-eval/1");
    expect(report.runtime.version).toBe(RUNTIME_VERSION);
    expect(report.results.map((result) => [result.model.id, result.passed, result.runs])).toEqual([
      ["right", 2, 2],
      ["wrong-tool", 0, 2],
      ["wrong-input", 0, 2],
    ]);
    expect(report.passRate).toBeCloseTo(2 / 6);
    const [right, wrongTool, wrongInput] = report.results;
    const run = right!.scenarios[0]!.attempts[0]!;
    expect(run.calls.map((call) => [call.tool, call.state])).toEqual([["add_to_cart", "done"], ["place_order", "done"]]);
    expect(run.answer).toBe("Your socks are ordered.");
    expect(run.steps).toHaveLength(3);
    expect([run.tokensIn, run.tokensOut]).toEqual([303, 30]);
    // The constraint's repairs as the steps reported them (the first step's call), summed per run.
    expect([run.steps.map((entry) => entry.repairedCalls), run.repairedCalls]).toEqual([[1, 0, 0], 1]);
    expect(run.confirmations).toEqual([{ tool: "place_order", answer: "allow" }]);
    expect(right!.medianTimeToFirstTokenMs).toBe(51);
    expect(right!.medianDecodeTokensPerSecond).toBe(20);
    expect(wrongTool!.scenarios[0]!.attempts.map((attempt) => attempt.failures.map((failure) => failure.kind))).toEqual([["wrong-tool"], ["wrong-tool"]]);
    expect(wrongInput!.scenarios[0]!.attempts[0]!.failures[0]!.message).toBe('Call 1: add_to_cart was called with {"quantity":3}, not {"quantity":1}.');
    // Each run started from fresh doubles: 1 twice, then 3 twice.
    expect(added).toEqual([1, 1, 3, 3]);
    // The tools were removed after each run: none is left on the page.
    expect(await getModelContext().getTools()).toEqual([]);
    expect(modelsBelow(report, 1).map((result) => result.model.id)).toEqual(["wrong-tool", "wrong-input"]);
    expect(evalRows(report).find((row) => row.model === "wrong-tool" && row.scenario === "all")!.failures).toBe("wrong-tool ×2: Call 1: expected add_to_cart, got get_cart, place_order.");
    expect(formatEvalTable(report).split("\n")[0]).toMatch(/^model\s+download\s+scenario\s+passed\s+TTFT\s+decode\s+why it failed$/);
    // JSON-safe: it reads back as it was.
    expect(parseEvalReport(JSON.stringify(report))).toEqual(report);
  });

  it("answers confirmations as the scenario says: a declined order comes back to the model as declined", async () => {
    const declined = defineAgentScenario({ id: "declined", messages: "Buy socks", tools: doubles, calls: [{ tool: "place_order" }], confirm: { place_order: "decline" }, answer: (text) => !/ordered/i.test(text) });
    const report = await evaluateAgent({ agent, scenarios: [declined], adapters: [scripted("right", () => shopping(1))] });
    const run = report.results[0]!.scenarios[0]!.attempts[0]!;
    expect(run.confirmations).toEqual([{ tool: "place_order", answer: "decline" }]);
    expect(run.calls[1]).toMatchObject({ tool: "place_order", state: "error", error: expect.stringMatching(/declined/) });
    // The scripted model says "ordered" anyway: the answer predicate catches it.
    expect(run.failures.map((failure) => failure.kind)).toEqual(["answer"]);
  });

  it("reports a run that ends in an error part with its code, and an adapter that cannot be prepared, without rejecting", async () => {
    const broken = createScriptedAdapter({ id: "broken", runs: [[{ type: "error", error: "The model could not load.", code: "load_failed" }]] });
    const unprepared = { ...createScriptedAdapter({ id: "unprepared", runs: [] }), prepare: () => Promise.reject(Object.assign(new Error("No room."), { code: "quota_exceeded" })) };
    const once = defineAgentScenario({ id: "once", messages: "Hi", tools: doubles });
    const report = await evaluateAgent({ agent, scenarios: [once], adapters: [broken, unprepared] });
    expect(report.results[0]!.scenarios[0]!.attempts[0]!.failures).toEqual([{ kind: "error", code: "load_failed", message: "The run failed (load_failed): The model could not load." }]);
    expect(report.results[1]).toMatchObject({ runs: 0, passed: 0, error: { message: "No room.", code: "quota_exceeded" } });
    expect(modelsBelow(report, 0).map((result) => result.model.id)).toEqual(["unprepared"]);
  });

  it("sends each message once the previous reply is done, in one conversation, and judges the answer after the last", async () => {
    const adapter = createScriptedAdapter({
      id: "two-turns",
      runs: [
        [...step(0, [textPart("Which size?")]), { type: "finish", reason: "stop" }],
        shopping(1),
      ],
    });
    const twoTurns = defineAgentScenario({ id: "two-turns", messages: ["Buy socks", "One pair"], tools: doubles, calls: [{ tool: "add_to_cart" }], answer: /^Your socks are ordered\.$/ });
    const report = await evaluateAgent({ agent, scenarios: [twoTurns], adapters: [adapter] });
    expect(report.results[0]!.passed).toBe(1);
    // The second run saw the whole conversation: both messages and the first reply.
    expect(adapter.requests[1]!.messages.map((message) => message.role)).toEqual(["user", "assistant", "user"]);
    expect(report.results[0]!.scenarios[0]!.attempts[0]!.steps).toHaveLength(4);
  });

  it("stops a run past timeoutMs and fails it with the code timeout, the tool doubles removed", async () => {
    const stuck = defineAgentScenario({
      id: "stuck",
      messages: "Buy socks",
      // A tool that never answers: only the evaluation's ceiling ends the run.
      tools: () => [defineWebTool({ name: "add_to_cart", description: "Never answers.", execute: () => new Promise<never>(() => {}) })],
    });
    const report = await evaluateAgent({ agent, scenarios: [stuck], adapters: [scripted("slow", () => shopping(1))], timeoutMs: 200 });
    // Timeout first and alone: the run was cut short, so its missing calls say nothing about the model.
    expect(report.results[0]!.scenarios[0]!.attempts[0]!.failures).toEqual([
      { kind: "timeout", code: "timeout", message: "Timed out: The run took over 200 ms and was stopped. The model was slow here, not judged wrong; raise evaluateAgent's timeoutMs to let it finish." },
    ]);
    expect(evalRows(report).at(-1)!.failures).toMatch(/^timeout ×1: Timed out/);
    expect(await getModelContext().getTools()).toEqual([]);
  });

  it("blames the site, with its message, for a tool double that throws a TypeError and for a double named like one of the page's own tools", async () => {
    const throwing = defineAgentScenario({
      id: "throwing-double",
      messages: "Buy socks",
      tools: () => [defineWebTool({ name: "add_to_cart", description: "Adds socks.", execute: () => { throw new TypeError("cart is not iterable"); } }), ...doubles().slice(1)],
      calls: [{ tool: "add_to_cart" }, { tool: "place_order" }],
      answer: /ordered/i,
    });
    const report = await evaluateAgent({ agent, scenarios: [throwing], adapters: [scripted("right", () => shopping(1))] });
    expect(report.results[0]!.scenarios[0]!.attempts[0]!.failures).toEqual([
      expect.objectContaining({ kind: "site-error", code: "tool_failed", message: expect.stringMatching(/^The tool double add_to_cart threw on \{"quantity":1\}: TypeError: cart is not iterable\. That is a bug in the scenario's code, not the model's call/) }),
    ]);

    // The page already has its own add_to_cart: the double of the same name is refused before the model runs.
    const own = new AbortController();
    await registerWebTool(defineWebTool({ name: "add_to_cart", description: "The page's own.", execute: () => "Added." }), { signal: own.signal });
    const clash = await evaluateAgent({ agent, scenarios: [scenario], adapters: [scripted("right", () => shopping(1))] });
    own.abort();
    const failures = clash.results[0]!.scenarios[0]!.attempts.map((attempt) => attempt.failures);
    expect(failures).toEqual([0, 1].map(() => [expect.objectContaining({ kind: "site-error", code: "duplicate_tool", message: expect.stringMatching(/^The scenario's tool doubles could not be set up \(duplicate_tool\): A tool named "add_to_cart" is already registered on this page.* The model did not run\.$/) })]));
    expect(clash.results[0]!.scenarios[0]!.attempts[0]!.steps).toEqual([]);
  });

  it("throws a TypeError for options that are wrong", async () => {
    await expect(evaluateAgent({ scenarios: [] })).rejects.toThrow(/scenarios must be a non-empty list/);
    await expect(evaluateAgent({ scenarios: [{ id: "x" } as never], adapters: [scripted("a", () => [])] })).rejects.toThrow(/must come from defineAgentScenario/);
    await expect(evaluateAgent({ scenarios: [scenario, scenario], adapters: [scripted("a", () => [])] })).rejects.toThrow(/"buy-socks" is used twice/);
    await expect(evaluateAgent({ scenarios: [scenario] })).rejects.toThrow(/nothing to evaluate/);
  });
});

describe("diffEvalReports", () => {
  it("shows each pass rate's change and what the runs differed in", async () => {
    const before = await evaluateAgent({ agent, scenarios: [scenario], adapters: [scripted("model", () => shopping(3))] });
    const after = await evaluateAgent({ agent, scenarios: [scenario], adapters: [scripted("model", () => shopping(1))] });
    const changed = { ...after, runtime: { version: "0.2.0" } };
    const diff = diffEvalReports(before, changed);
    expect(diff.rows).toEqual([
      { model: "model", scenario: "buy-socks", before: 0, after: 1, change: 1 },
      { model: "model", scenario: "all", before: 0, after: 1, change: 1 },
    ]);
    expect(diff.changes).toEqual([`runtime version: ${RUNTIME_VERSION} -> 0.2.0`]);
  });
});
