import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { AgentAdapter } from "./agent-adapter.js";
import type { AgentMessage } from "./agent-message.js";
import type { AgentSession } from "./agent-session.js";
import type { AgentStreamPart } from "./agent-stream-part.js";
import { createAgentSession, type AgentSessionStore } from "./create-agent-session.js";
import { messagesAt } from "./messages-at.js";
import { resumable } from "./resumable.js";
import type { RunContext } from "./run-agent-loop.js";
import { initialSessionState, sessionReducer, type SessionAction, type SessionState } from "./session-reducer.js";
import { createConversationStorage } from "./session-storage.js";
import { memoryStorage } from "../test-support/memory-storage.js";

// The loop stands in for the adapter: each test dispatches the loop's actions itself, stale
// runs and unknown messages included, which no adapter gets past the real loop's checks.
const runs = vi.hoisted(() => ({ contexts: [] as RunContext[], started: () => {} }));
vi.mock("./run-agent-loop.js", () => ({
  runAgentLoop(context: RunContext) {
    runs.contexts.push(context);
    runs.started();
    return new Promise(() => {});
  },
}));

const adapter: AgentAdapter = { id: "idle", label: "Idle", async *run() {} };
const KEY = "chat";

/** The session as it was before streamed text waited: every action through the reducer at once. */
class Unbuffered {
  state: SessionState = sessionReducer(initialSessionState, { type: "restore", messages: [] });
  /** The state the last snapshot showed. */
  shown = this.state;
  emits = 0;
  framePending = false;
  readonly storage = memoryStorage();
  readonly #conversation = createConversationStorage(KEY, this.storage);

  dispatch(action: SessionAction): void {
    const next = sessionReducer(this.state, action);
    if (next === this.state) return;
    this.state = next;
    if (action.type === "part" && action.part.type === "text-delta" && next.status === "streaming") {
      this.framePending = true;
      return;
    }
    this.#conversation.save(next.messages);
    this.emit();
  }
  frame(): void {
    if (this.framePending) this.emit();
  }
  clear(): void {
    this.#conversation.clear();
  }
  emit(): void {
    this.shown = this.state;
    this.framePending = false;
    this.emits++;
  }
}

const shown = (state: AgentSession | SessionState) => ({ messages: state.messages, status: state.status, error: state.error, usage: state.usage });

/** Sends `text` and waits for its run to reach the (stand-in) loop. */
async function send(session: AgentSessionStore, text = "hi"): Promise<RunContext> {
  const started = new Promise<void>((resolve) => (runs.started = resolve));
  session.send(text);
  await started;
  return runs.contexts.at(-1)!;
}

function mulberry32(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const MESSAGES = ["m1", "m2", "m3"];
const TOOLS = ["t1", "t2", "t3"];
const PATHS: readonly (readonly string[])[] = [[], [], ["t1"], ["t2"], ["t1", "t2"], ["t2", "t3"]];
const DELTAS = ["", "a", "bc", " ", "é\n"];

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
  runs.contexts.length = 0;
});
afterEach(() => {
  vi.useRealTimers();
});

describe("createAgentSession's held text-deltas (its loop replaced by one that dispatches raw actions)", () => {
  it("shows and stores what applying every action at once did, over random interleavings", async () => {
    for (let seed = 1; seed <= 120; seed++) {
      const random = mulberry32(seed);
      const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
      const model = new Unbuffered();
      const storage = memoryStorage();
      const session = createAgentSession(adapter, { storageKey: KEY, storage });
      let context = await send(session);
      model.dispatch({ type: "send", runId: context.runId, message: session.getSnapshot().messages.at(-1)! });
      let delta = { messageId: "m1", path: PATHS[0]! };
      for (let step = 0; step < 150; step++) {
        const emitsBefore = model.emits;
        const snapshotBefore = session.getSnapshot();
        const roll = random();
        const runId = random() < 0.85 ? context.runId : pick([...runs.contexts.map((each) => each.runId), "gone"]);
        const dispatch = (action: SessionAction) => {
          context.dispatch(action);
          model.dispatch(action);
        };
        const part = (part: AgentStreamPart, path = pick(PATHS)) => dispatch({ type: "part", runId, part, path });
        if (roll < 0.5) {
          // Mostly the same message and path as the last delta, so deltas come in runs to join.
          if (random() < 0.2) delta = { messageId: pick(MESSAGES), path: pick(PATHS) };
          part({ type: "text-delta", messageId: delta.messageId, delta: pick(DELTAS) }, delta.path);
        } else if (roll < 0.56) part({ type: "message-start", messageId: pick(MESSAGES) });
        else if (roll < 0.61) part({ type: "tool-call", messageId: pick(MESSAGES), id: pick(TOOLS), name: "lookup", input: {} });
        else if (roll < 0.64) part({ type: "tool-result", id: pick(TOOLS), output: { content: [{ type: "text", text: "ok" }] } });
        else if (roll < 0.66) part({ type: "tool-error", id: pick(TOOLS), error: "Error [cancelled]: Stopped." });
        else if (roll < 0.68) part({ type: "reasoning", messageId: pick(MESSAGES), text: "hm" });
        else if (roll < 0.7) part({ type: "step-finish", step: 1, usage: { promptTokens: step, outputTokens: 1 } });
        else if (roll < 0.74) {
          const message: AgentMessage = { id: pick(MESSAGES), role: "user", parts: [{ type: "text", text: "task" }] };
          dispatch({ type: "nested-start", runId, path: pick(PATHS.filter((path) => path.length > 0)), agentId: "sub", message });
        } else if (roll < 0.76) {
          const state = random() < 0.5 ? "running" : "awaiting-confirmation";
          dispatch({ type: "tool-state", runId, tool: "lookup", ...(random() < 0.5 && { callId: pick(TOOLS) }), state, prompt: "Allow?" });
        } else if (roll < 0.78) part({ type: "finish", reason: pick(["stop", "aborted"] as const) });
        else if (roll < 0.79) part({ type: "error", error: "The model failed." });
        else if (roll < 0.88) {
          vi.advanceTimersByTime(16);
          model.frame();
        } else if (roll < 0.93) {
          const path = pick(PATHS);
          expect(context.conversation!(path)).toStrictEqual(messagesAt(model.state.messages, path));
        } else if (roll < 0.95) {
          session.stop();
          model.dispatch({ type: "stop" });
        } else if (roll < 0.995) {
          if (model.state.status === "streaming") continue;
          const retry = random() < 0.3 && model.state.messages.some((message) => message.role === "user");
          if (retry) {
            const started = new Promise<void>((resolve) => (runs.started = resolve));
            session.retry();
            await started;
            context = runs.contexts.at(-1)!;
            model.dispatch({ type: "retry", runId: context.runId, messages: resumable(model.state.messages) });
          } else {
            context = await send(session);
            model.dispatch({ type: "send", runId: context.runId, message: session.getSnapshot().messages.at(-1)! });
          }
        } else {
          session.reset();
          model.dispatch({ type: "stop" });
          model.dispatch({ type: "reset" });
          model.clear();
        }
        const where = `seed ${seed}, step ${step}`;
        expect(session.getSnapshot() !== snapshotBefore, where).toBe(model.emits > emitsBefore);
        expect(shown(session.getSnapshot()), where).toStrictEqual(shown(model.shown));
        expect(storage.getItem(KEY), where).toBe(model.storage.getItem(KEY));
      }
      vi.advanceTimersByTime(16);
      model.frame();
      expect(shown(session.getSnapshot())).toStrictEqual(shown(model.shown));
      session.dispose();
    }
  });

  it("applies the deltas before a finish right after them: told and stored at once, with no frame", async () => {
    const storage = memoryStorage();
    const session = createAgentSession(adapter, { storageKey: KEY, storage });
    const { runId, dispatch } = await send(session);
    dispatch({ type: "part", runId, part: { type: "message-start", messageId: "m1" } });
    for (const delta of ["Hel", "lo", "."]) dispatch({ type: "part", runId, part: { type: "text-delta", messageId: "m1", delta } });
    dispatch({ type: "part", runId, part: { type: "finish", reason: "stop" } });
    const expected = [{ type: "text", text: "Hello." }];
    expect(session.getSnapshot()).toMatchObject({ status: "idle", messages: [{}, { parts: expected }] });
    expect(JSON.parse(storage.getItem(KEY)!).messages[1].parts).toEqual(expected);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("keeps the text so far on Stop mid-stream, and drops a stale run's deltas after it", async () => {
    const storage = memoryStorage();
    const session = createAgentSession(adapter, { storageKey: KEY, storage });
    const first = await send(session);
    first.dispatch({ type: "part", runId: first.runId, part: { type: "message-start", messageId: "m1" } });
    first.dispatch({ type: "part", runId: first.runId, part: { type: "text-delta", messageId: "m1", delta: "Half" } });
    session.stop();
    expect(session.getSnapshot()).toMatchObject({ status: "idle", messages: [{}, { parts: [{ type: "text", text: "Half" }] }] });
    expect(JSON.parse(storage.getItem(KEY)!).messages[1].parts).toEqual([{ type: "text", text: "Half" }]);

    const second = await send(session, "again");
    second.dispatch({ type: "part", runId: second.runId, part: { type: "message-start", messageId: "m2" } });
    second.dispatch({ type: "part", runId: second.runId, part: { type: "text-delta", messageId: "m2", delta: "New" } });
    // The first run's late parts, between the second's deltas: dropped, and they break no join.
    first.dispatch({ type: "part", runId: first.runId, part: { type: "text-delta", messageId: "m1", delta: " more" } });
    first.dispatch({ type: "part", runId: first.runId, part: { type: "text-delta", messageId: "m2", delta: "!" } });
    second.dispatch({ type: "part", runId: second.runId, part: { type: "text-delta", messageId: "m2", delta: " text" } });
    vi.advanceTimersByTime(16);
    const texts = session.getSnapshot().messages.map((message) => message.parts);
    expect(texts).toEqual([[{ type: "text", text: "hi" }], [{ type: "text", text: "Half" }], [{ type: "text", text: "again" }], [{ type: "text", text: "New text" }]]);
  });

  it("gives conversation() every delta so far before any frame, at the top level and in a nested run", async () => {
    const session = createAgentSession(adapter, { storageKey: false });
    const { runId, dispatch, conversation } = await send(session);
    const path = ["call1"];
    dispatch({ type: "part", runId, part: { type: "message-start", messageId: "m1" } });
    dispatch({ type: "part", runId, part: { type: "tool-call", messageId: "m1", id: "call1", name: "delegate_to_sub", input: {} } });
    const task: AgentMessage = { id: "task", role: "user", parts: [{ type: "text", text: "Look." }] };
    dispatch({ type: "nested-start", runId, path, agentId: "sub", message: task });
    dispatch({ type: "part", runId, path, part: { type: "message-start", messageId: "n1" } });
    for (const delta of ["Fou", "nd"]) dispatch({ type: "part", runId, path, part: { type: "text-delta", messageId: "n1", delta } });
    expect(conversation!(path).at(-1)!.parts).toEqual([{ type: "text", text: "Found" }]);
    dispatch({ type: "part", runId, path, part: { type: "text-delta", messageId: "n1", delta: " it" } });
    expect(conversation!(path).at(-1)!.parts).toEqual([{ type: "text", text: "Found it" }]);
    expect(conversation!([]).at(-1)!.parts[0]).toMatchObject({ id: "call1", agent: { messages: [task, { parts: [{ text: "Found it" }] }] } });
    // The frame has not run: the snapshot still shows the text as it was at the last change.
    expect(session.getSnapshot().messages.at(-1)!.parts[0]).toMatchObject({ agent: { messages: [task, { parts: [] }] } });
  });
});
