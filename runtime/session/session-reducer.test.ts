import { describe, expect, it } from "vitest";
import type { AgentMessage, ToolPart } from "./agent-message.js";
import type { AgentStreamPart } from "./agent-stream-part.js";
import { initialSessionState, sessionReducer, type SessionAction, type SessionState } from "./session-reducer.js";

const user: AgentMessage = { id: "u1", role: "user", parts: [{ type: "text", text: "Add socks" }] };

function run(actions: SessionAction[], from: SessionState = initialSessionState): SessionState {
  return actions.reduce(sessionReducer, from);
}
const part = (value: AgentStreamPart, path?: string[]): SessionAction => ({ type: "part", runId: "r1", part: value, ...(path && { path }) });
const toolOf = (state: SessionState, messageIndex = 1, partIndex = 0) =>
  state.messages[messageIndex]!.parts[partIndex] as ToolPart;

describe("sessionReducer", () => {
  it("builds an assistant message from message-start, text deltas and a tool call", () => {
    const state = run([
      { type: "send", runId: "r1", message: user },
      part({ type: "message-start", messageId: "a1" }),
      part({ type: "text-delta", messageId: "a1", delta: "Look" }),
      part({ type: "text-delta", messageId: "a1", delta: "ing." }),
      part({ type: "reasoning", messageId: "a1", text: "hmm", providerMetadata: { sig: "x" } }),
      part({ type: "tool-call", messageId: "a1", id: "c1", name: "get_cart", input: {} }),
    ]);
    expect(state.status).toBe("streaming");
    expect(state.messages[1]).toEqual({
      id: "a1",
      role: "assistant",
      parts: [
        { type: "text", text: "Looking." },
        { type: "reasoning", text: "hmm", providerMetadata: { sig: "x" } },
        { type: "tool", id: "c1", name: "get_cart", input: {}, state: "running" },
      ],
    });
  });

  it("moves a call through awaiting-confirmation and back to running, then done", () => {
    const base = run([
      { type: "send", runId: "r1", message: user },
      part({ type: "message-start", messageId: "a1" }),
      part({ type: "tool-call", messageId: "a1", id: "c1", name: "place_order", input: {} }),
    ]);
    const parked = sessionReducer(base, { type: "tool-state", runId: "r1", tool: "place_order", state: "awaiting-confirmation", prompt: "Click Place order" });
    expect(toolOf(parked)).toMatchObject({ state: "awaiting-confirmation", prompt: "Click Place order" });
    const resumed = sessionReducer(parked, { type: "tool-state", runId: "r1", tool: "place_order", state: "running" });
    expect(toolOf(resumed).state).toBe("running");
    expect(toolOf(resumed).prompt).toBeUndefined();
    const output = { content: [{ type: "text" as const, text: "Order 7 placed." }] };
    const done = sessionReducer(resumed, part({ type: "tool-result", id: "c1", output }));
    expect(toolOf(done)).toMatchObject({ state: "done", output });
  });

  it("marks the call an event names by id: of two open calls of one tool, the right one, nested ones too", () => {
    const task: AgentMessage = { id: "t1", role: "user", parts: [{ type: "text", text: "Confirm too" }] };
    const base = run([
      { type: "send", runId: "r1", message: user },
      part({ type: "message-start", messageId: "a1" }),
      part({ type: "tool-call", messageId: "a1", id: "c1", name: "place_order", input: {} }),
      part({ type: "tool-call", messageId: "a1", id: "c2", name: "place_order", input: {} }),
      part({ type: "tool-call", messageId: "a1", id: "d1", name: "delegate_to_orders", input: { task: "Confirm too" } }),
      { type: "nested-start", runId: "r1", path: ["d1"], agentId: "orders", message: task },
      part({ type: "message-start", messageId: "n1" }, ["d1"]),
      part({ type: "tool-call", messageId: "n1", id: "c3", name: "place_order", input: {} }, ["d1"]),
    ]);
    const park = (callId: string): SessionAction => ({ type: "tool-state", runId: "r1", tool: "place_order", callId, state: "awaiting-confirmation", prompt: `Confirm ${callId}` });
    const states = (state: SessionState) => [toolOf(state, 1, 0).state, toolOf(state, 1, 1).state, toolOf(state, 1, 2).agent!.messages[1]!.parts[0]!];
    const first = sessionReducer(base, park("c1"));
    expect(toolOf(first, 1, 0)).toMatchObject({ state: "awaiting-confirmation", prompt: "Confirm c1" });
    expect(states(first).slice(0, 2)).toEqual(["awaiting-confirmation", "running"]);
    expect(states(first)[2]).toMatchObject({ state: "running" });
    const nested = sessionReducer(first, park("c3"));
    expect(states(nested)[2]).toMatchObject({ state: "awaiting-confirmation", prompt: "Confirm c3" });
    const resumed = sessionReducer(nested, { type: "tool-state", runId: "r1", tool: "place_order", callId: "c1", state: "running" });
    expect(toolOf(resumed, 1, 0)).toMatchObject({ state: "running" });
    expect(toolOf(resumed, 1, 0).prompt).toBeUndefined();
    expect(states(resumed)[2]).toMatchObject({ state: "awaiting-confirmation" });
  });

  it("leaves the state as it is for an event of a call it does not hold (another chat's)", () => {
    const base = run([
      { type: "send", runId: "r1", message: user },
      part({ type: "message-start", messageId: "a1" }),
      part({ type: "tool-call", messageId: "a1", id: "c1", name: "place_order", input: {} }),
    ]);
    const other = sessionReducer(base, { type: "tool-state", runId: "r1", tool: "place_order", callId: "elsewhere", state: "awaiting-confirmation", prompt: "Not yours" });
    expect(other).toBe(base);
    // Without a call id (a tool that knows none), the latest open call of that tool is the guess.
    const guessed = sessionReducer(base, { type: "tool-state", runId: "r1", tool: "place_order", state: "awaiting-confirmation", prompt: "Yours?" });
    expect(toolOf(guessed)).toMatchObject({ state: "awaiting-confirmation", prompt: "Yours?" });
  });

  it("marks Error [cancelled] results cancelled and other errors error", () => {
    const base = run([
      { type: "send", runId: "r1", message: user },
      part({ type: "message-start", messageId: "a1" }),
      part({ type: "tool-call", messageId: "a1", id: "c1", name: "a", input: {} }),
      part({ type: "tool-call", messageId: "a1", id: "c2", name: "b", input: {} }),
    ]);
    const state = run(
      [part({ type: "tool-error", id: "c1", error: "Error [cancelled]: Stopped." }), part({ type: "tool-error", id: "c2", error: "Error [tool_failed]: boom" })],
      base,
    );
    expect(toolOf(state, 1, 0)).toMatchObject({ state: "cancelled", error: "Error [cancelled]: Stopped.", errorCode: "cancelled" });
    expect(toolOf(state, 1, 1)).toMatchObject({ state: "error", error: "Error [tool_failed]: boom", errorCode: "tool_failed" });
  });

  it("drops parts from a superseded run", () => {
    const state = run([{ type: "send", runId: "r2", message: user }, part({ type: "message-start", messageId: "a1" })]);
    expect(state.messages).toHaveLength(1);
  });

  it("stop cancels open calls and ends streaming; later parts of that run are dropped", () => {
    const state = run([
      { type: "send", runId: "r1", message: user },
      part({ type: "message-start", messageId: "a1" }),
      part({ type: "tool-call", messageId: "a1", id: "c1", name: "a", input: {} }),
      { type: "stop" },
      part({ type: "text-delta", messageId: "a1", delta: "late" }),
    ]);
    expect(state.status).toBe("idle");
    expect(toolOf(state).state).toBe("cancelled");
    expect(state.messages[1]!.parts).toHaveLength(1);
  });

  it("stop marks the turn's reply stopped, keeping its partial text", () => {
    const state = run([
      { type: "send", runId: "r1", message: user },
      part({ type: "message-start", messageId: "a1" }),
      part({ type: "text-delta", messageId: "a1", delta: "Your socks are" }),
      { type: "stop" },
    ]);
    expect(state.messages).toEqual([user, { id: "a1", role: "assistant", parts: [{ type: "text", text: "Your socks are" }], stopped: true }]);
  });

  it("stop before the reply's first part leaves a stopped, empty reply, not a question with no answer", () => {
    const state = run([{ type: "send", runId: "r1", message: user }, { type: "stop" }]);
    expect(state.status).toBe("idle");
    expect(state.messages).toEqual([user, { id: "r1-stopped", role: "assistant", parts: [], stopped: true }]);
    // Nothing to stop once idle: a second stop changes nothing.
    expect(sessionReducer(state, { type: "stop" })).toBe(state);
  });

  it("an error part records the error with its code", () => {
    const state = run([{ type: "send", runId: "r1", message: user }, part({ type: "error", error: "Slow down.", code: "rate_limited" })]);
    expect(state).toMatchObject({ status: "error", error: { message: "Slow down.", code: "rate_limited" } });
  });

  it("nests a sub-agent's run under its delegate call, and marks its calls by tool name", () => {
    const task: AgentMessage = { id: "t1", role: "user", parts: [{ type: "text", text: "Track order 7" }] };
    const state = run([
      { type: "send", runId: "r1", message: user },
      part({ type: "message-start", messageId: "a1" }),
      part({ type: "tool-call", messageId: "a1", id: "d1", name: "delegate_to_orders", input: { task: "Track order 7" } }),
      { type: "nested-start", runId: "r1", path: ["d1"], agentId: "orders", message: task },
      part({ type: "message-start", messageId: "n1" }, ["d1"]),
      part({ type: "tool-call", messageId: "n1", id: "c9", name: "track_order", input: { id: 7 } }, ["d1"]),
      { type: "tool-state", runId: "r1", tool: "track_order", state: "awaiting-confirmation", prompt: "Confirm" },
      part({ type: "finish", reason: "stop" }, ["d1"]),
    ]);
    const delegate = toolOf(state);
    expect(delegate.state).toBe("running");
    expect(delegate.agent?.id).toBe("orders");
    expect(delegate.agent?.messages[0]).toEqual(task);
    expect(delegate.agent?.messages[1]?.parts[0]).toMatchObject({ name: "track_order", state: "awaiting-confirmation", prompt: "Confirm" });
    expect(state.status).toBe("streaming");

    const stopped = sessionReducer(state, { type: "stop" });
    expect(toolOf(stopped).state).toBe("cancelled");
    expect(toolOf(stopped).agent?.messages[1]?.parts[0]).toMatchObject({ state: "cancelled" });
  });

  it("restore cancels calls that were open when the conversation was saved", () => {
    const saved: AgentMessage[] = [
      user,
      { id: "a1", role: "assistant", parts: [{ type: "tool", id: "c1", name: "a", input: {}, state: "awaiting-confirmation", prompt: "Click" }] },
    ];
    const state = sessionReducer(initialSessionState, { type: "restore", messages: saved });
    expect(toolOf(state)).toMatchObject({ state: "cancelled" });
    expect(toolOf(state).prompt).toBeUndefined();
    expect(state.status).toBe("idle");
  });

  it("never mutates the state it is given", () => {
    const base = run([{ type: "send", runId: "r1", message: user }, part({ type: "message-start", messageId: "a1" })]);
    const frozen = structuredClone(base);
    run([part({ type: "text-delta", messageId: "a1", delta: "x" }), { type: "stop" }], base);
    expect(base).toEqual(frozen);
  });
});

describe("sessionReducer: usage", () => {
  it("keeps the last top-level step's usage through the finish, and ignores a sub-agent's", () => {
    const runId = "r1";
    let state = sessionReducer(initialSessionState, { type: "send", runId, message: { id: "u1", role: "user", parts: [{ type: "text", text: "Hi" }] } });
    const usage = { promptTokens: 120, cachedPromptTokens: 100, outputTokens: 8, timeToFirstTokenMs: 40, decodeTokensPerSecond: 30 };
    state = sessionReducer(state, { type: "part", runId, part: { type: "step-finish", step: 1, usage: { promptTokens: 5, outputTokens: 1 } }, path: ["call-1"] });
    expect(state.usage).toBeUndefined();
    state = sessionReducer(state, { type: "part", runId, part: { type: "step-finish", step: 1, usage } });
    state = sessionReducer(state, { type: "part", runId, part: { type: "finish", reason: "stop" } });
    expect(state).toMatchObject({ status: "idle", usage });
  });
});
