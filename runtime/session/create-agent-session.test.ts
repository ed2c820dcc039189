// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { defineWebAgent } from "../agent/define-web-agent.js";
import { defineWebTool } from "../core/define-web-tool.js";
import { registerWebTool } from "../core/register-web-tool.js";
import { installHappyDomWebMCP, personClick, resetWebMCP } from "../core/test-fixtures/happy-dom-webmcp.js";
import { createScriptedAdapter } from "../testing/create-scripted-adapter.js";
import type { AgentAdapter } from "./agent-adapter.js";
import type { AgentMessage, ToolPart } from "./agent-message.js";
import type { AgentStreamPart } from "./agent-stream-part.js";
import { createAgentSession, type AgentSessionStore } from "./create-agent-session.js";

const start = (id = "m1"): AgentStreamPart => ({ type: "message-start", messageId: id });
const say = (delta: string, id = "m1"): AgentStreamPart => ({ type: "text-delta", messageId: id, delta });
const finish: AgentStreamPart = { type: "finish", reason: "stop" };

function settled(session: AgentSessionStore): Promise<void> {
  return new Promise((resolve) => {
    const unsubscribe = session.subscribe(() => {
      if (session.getSnapshot().status !== "streaming") {
        unsubscribe();
        resolve();
      }
    });
  });
}

let registrations: AbortController;
beforeEach(async () => {
  installHappyDomWebMCP();
  registrations = new AbortController();
  sessionStorage.clear();
  await registerWebTool(
    defineWebTool({ name: "get_cart", description: "Read the cart.", execute: () => ({ items: [] }) }),
    { signal: registrations.signal },
  );
});
afterEach(() => {
  registrations.abort();
  resetWebMCP();
});

describe("createAgentSession", () => {
  it("trims and sends; ignores empty text and a send while streaming", async () => {
    const adapter = createScriptedAdapter({ runs: [[start(), say("Hi."), finish]], delay: 5 });
    const session = createAgentSession(adapter, { storageKey: false });
    session.send("   ");
    expect(session.getSnapshot().messages).toEqual([]);
    const done = settled(session);
    session.send("  hello  ");
    session.send("again");
    await done;
    const { messages, status } = session.getSnapshot();
    expect(status).toBe("idle");
    expect(messages.map((message) => message.parts)).toEqual([[{ type: "text", text: "hello" }], [{ type: "text", text: "Hi." }]]);
    expect(adapter.requests).toHaveLength(1);
    expect(adapter.requests[0]!.tools.map((tool) => tool.name)).toEqual(["get_cart"]);
  });

  it("turns an adapter that throws into an error, and Retry starts the turn over", async () => {
    let calls = 0;
    const adapter: AgentAdapter = {
      id: "flaky",
      label: "Flaky",
      async *run() {
        calls++;
        if (calls === 1) throw new Error("The model crashed.");
        yield start();
        yield say("Fine now.");
        yield finish;
      },
    };
    const session = createAgentSession(adapter, { storageKey: false });
    let done = settled(session);
    session.send("hi");
    await done;
    expect(session.getSnapshot()).toMatchObject({ status: "error", error: { message: "The model crashed." } });
    done = settled(session);
    session.retry();
    await done;
    expect(session.getSnapshot().status).toBe("idle");
    expect(session.getSnapshot().error).toBeUndefined();
    expect(session.getSnapshot().messages).toHaveLength(2);
  });

  it("refuses a malformed part whole, naming the adapter and the problem", async () => {
    const adapter = createScriptedAdapter({
      id: "broken",
      runs: [[start(), say("ok"), { type: "text-delta", messageId: "nope", delta: "x" }, finish]],
    });
    const session = createAgentSession(adapter, { storageKey: false });
    const done = settled(session);
    session.send("hi");
    await done;
    const { status, error, messages } = session.getSnapshot();
    expect(status).toBe("error");
    expect(error?.message).toMatch(/"broken" adapter sent a malformed part: .*nope.*message-start/);
    expect(messages[1]!.parts).toEqual([{ type: "text", text: "ok" }]);
  });

  it("rejects a part of an unknown type and a finish with an unknown reason", async () => {
    for (const bad of [{ type: "text" }, { type: "finish", reason: "done" }]) {
      const adapter = createScriptedAdapter({ runs: [[start(), bad as AgentStreamPart]] });
      const session = createAgentSession(adapter, { storageKey: false });
      const done = settled(session);
      session.send("hi");
      await done;
      expect(session.getSnapshot().error?.message).toMatch(/malformed part/);
    }
  });

  it("ends a stream without finish as stop, cancelling a call left without a result", async () => {
    const adapter: AgentAdapter = {
      id: "sloppy",
      label: "Sloppy",
      async *run() {
        yield start();
        yield { type: "tool-call", messageId: "m1", id: "c1", name: "get_cart", input: {} };
      },
    };
    const session = createAgentSession(adapter, { storageKey: false });
    const done = settled(session);
    session.send("hi");
    await done;
    const tool = session.getSnapshot().messages[1]!.parts[0] as ToolPart;
    expect(session.getSnapshot().status).toBe("idle");
    expect(tool.state).toBe("cancelled");
  });

  it("Stop aborts the adapter's signal; a run superseded by a new send never writes", async () => {
    let firstSignal: AbortSignal | undefined;
    // The old run's pause ends when the new run starts, and its end is an event: no sleep decides either.
    let oldStarted!: () => void;
    const oldRunning = new Promise<void>((resolve) => (oldStarted = resolve));
    let releaseOld!: () => void;
    const oldReleased = new Promise<void>((resolve) => (releaseOld = resolve));
    let oldEnded!: () => void;
    const oldDone = new Promise<void>((resolve) => (oldEnded = resolve));
    const adapter: AgentAdapter = {
      id: "slow",
      label: "Slow",
      async *run(request) {
        if (!firstSignal) {
          firstSignal = request.signal;
          try {
            yield start("old");
            // Resumed: the session has taken message-start.
            oldStarted();
            await oldReleased;
            // An adapter that ignores its signal keeps yielding: none of it may land.
            yield say("stale", "old");
            yield finish;
          } finally {
            oldEnded();
          }
          return;
        }
        releaseOld();
        yield start("new");
        yield say("fresh", "new");
        yield finish;
      },
    };
    const session = createAgentSession(adapter, { storageKey: false });
    session.subscribe(() => {});
    session.send("first");
    // Stop once the adapter is running (after the tools settle, however long
    // that takes on a loaded machine), while it waits before its next part.
    await oldRunning;
    expect(session.getSnapshot().messages).toHaveLength(2);
    session.stop();
    expect(firstSignal?.aborted).toBe(true);
    expect(session.getSnapshot().status).toBe("idle");
    const done = settled(session);
    session.send("second");
    await done;
    // The old run has ended: the session read its stale part, dropped it and let the run go.
    await oldDone;
    const texts = session.getSnapshot().messages.flatMap((message) => message.parts.map((part) => (part.type === "text" ? part.text : "")));
    expect(texts).toEqual(["first", "second", "fresh"]);
  });

  it("keeps adapterStatus current through the adapter's subscribe", () => {
    const adapter = createScriptedAdapter({ runs: [], status: { state: "needs-download", bytes: 10 } });
    const session = createAgentSession(adapter, { storageKey: false });
    const seen: string[] = [];
    session.subscribe(() => seen.push(session.getSnapshot().adapterStatus.state));
    adapter.setStatus({ state: "downloading", progress: 0.5 });
    adapter.setStatus({ state: "ready" });
    expect(seen).toEqual(["downloading", "ready"]);
    expect(session.getSnapshot().adapterStatus).toEqual({ state: "ready" });
  });

  it("reports an adapter without status() as ready, and one whose status() throws as an error", () => {
    const plain = createAgentSession({ id: "p", label: "P", run: async function* () {} }, { storageKey: false });
    expect(plain.getSnapshot().adapterStatus).toEqual({ state: "ready" });
    const status = vi.fn(() => {
      throw new Error("no GPU");
    });
    const throwing = createAgentSession({ id: "t", label: "T", run: async function* () {}, status }, { storageKey: false });
    throwing.subscribe(() => {});
    expect(throwing.getSnapshot().adapterStatus).toEqual({ state: "error", error: "no GPU" });
  });

  it("calls nothing on the adapter until the first subscribe, which reads its status without calling back", () => {
    const adapter = createScriptedAdapter({ runs: [], status: { state: "needs-download", bytes: 10 } });
    const status = vi.spyOn(adapter, "status");
    const subscribe = vi.spyOn(adapter, "subscribe");
    const session = createAgentSession(adapter, { storageKey: false });
    expect(session.getSnapshot().adapterStatus).toEqual({ state: "loading" });
    expect(status).not.toHaveBeenCalled();
    expect(subscribe).not.toHaveBeenCalled();
    const listener = vi.fn();
    session.subscribe(listener);
    expect(session.getSnapshot().adapterStatus).toEqual({ state: "needs-download", bytes: 10 });
    expect(subscribe).toHaveBeenCalledTimes(1);
    expect(listener).not.toHaveBeenCalled();
  });

  it("tells listeners of streamed text at most once per animation frame, and of anything else at once", async () => {
    // Queued frames by id; a cancelled one is deleted.
    const frames = new Map<number, FrameRequestCallback>();
    let nextId = 1;
    vi.stubGlobal("requestAnimationFrame", (callback: FrameRequestCallback) => {
      frames.set(nextId, callback);
      return nextId++;
    });
    vi.stubGlobal("cancelAnimationFrame", (id: number) => frames.delete(id));
    try {
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      const adapter: AgentAdapter = {
        id: "gated",
        label: "Gated",
        async *run() {
          yield start();
          yield say("a");
          await gate;
          yield say("b");
          yield say("c");
          yield finish;
        },
      };
      const session = createAgentSession(adapter, { storageKey: false });
      const texts: string[] = [];
      const textOf = () => session.getSnapshot().messages.at(-1)!.parts.map((part) => (part.type === "text" ? part.text : "")).join("");
      session.subscribe(() => texts.push(textOf()));
      const done = settled(session);
      session.send("go");
      await vi.waitFor(() => expect(frames.size).toBe(1));
      // "a" is applied but waits for the frame.
      expect(textOf()).toBe("");
      for (const [id, callback] of frames) {
        frames.delete(id);
        callback(0);
      }
      expect(textOf()).toBe("a");
      release();
      await done;
      // No frame ran for "b" and "c": the finish told them at once, text and all.
      expect(frames.size).toBe(0);
      expect(textOf()).toBe("abc");
      expect(texts.at(-1)).toBe("abc");
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it("rejects a bad adapter, storageKey or agent with a TypeError that names the fix", () => {
    expect(() => createAgentSession({} as AgentAdapter)).toThrow(/AgentAdapter/);
    const adapter = createScriptedAdapter({ runs: [] });
    expect(() => createAgentSession(adapter, { storageKey: "" })).toThrow(/storageKey/);
    expect(() => createAgentSession(adapter, { agent: { id: "x" } as never })).toThrow(/defineWebAgent/);
  });
});

describe("confirmation by call id", () => {
  /** An adapter that makes its calls of `confirm` (one per button) at once, concurrently. */
  const concurrentCalls = (id: string, calls: { id: string; button: string }[]): AgentAdapter => ({
    id,
    label: id,
    async *run(request) {
      yield start(id);
      for (const call of calls) yield { type: "tool-call", messageId: id, id: call.id, name: "confirm", input: { button: call.button } };
      const outputs = await Promise.all(calls.map((call) => request.callTool({ id: call.id, name: "confirm", input: { button: call.button } })));
      for (const [index, output] of outputs.entries()) yield { type: "tool-result", id: calls[index]!.id, output };
      yield finish;
    },
  });
  const callsOf = (session: AgentSessionStore) =>
    Object.fromEntries(
      session
        .getSnapshot()
        .messages.flatMap((message) => message.parts)
        .filter((part): part is ToolPart => part.type === "tool")
        .map((part) => [part.id, part.state === "awaiting-confirmation" ? `parked: ${part.prompt}` : part.state]),
    );

  it("marks the right call of two concurrent calls of one tool, in two chats on one page", async () => {
    document.body.innerHTML = `<button id="a">A</button><button id="b">B</button><button id="c">C</button>`;
    await registerWebTool(
      defineWebTool({
        name: "confirm",
        description: "Asks the person to click a button.",
        inputSchema: { type: "object", properties: { button: { type: "string" } }, required: ["button"] },
        execute: async (input: { button?: unknown }, context) => {
          await context.waitForClick(`#${String(input.button)}`, `Click ${String(input.button).toUpperCase()}.`);
          return `clicked ${String(input.button)}`;
        },
      }),
      { signal: registrations.signal },
    );
    const first = createAgentSession(concurrentCalls("first", [{ id: "c1", button: "a" }, { id: "c2", button: "b" }]), { storageKey: false });
    const second = createAgentSession(concurrentCalls("second", [{ id: "c3", button: "c" }]), { storageKey: false });
    first.subscribe(() => {});
    second.subscribe(() => {});
    first.send("two calls");
    second.send("one call");
    await vi.waitFor(() => {
      expect(callsOf(first)).toEqual({ c1: "parked: Click A.", c2: "parked: Click B." });
      expect(callsOf(second)).toEqual({ c3: "parked: Click C." });
    });
    personClick(document.querySelector("#b")!);
    // c2 is done as soon as its tool returns (run-agent-loop.ts), while the adapter still waits for c1.
    await vi.waitFor(() => expect(callsOf(first)).toEqual({ c1: "parked: Click A.", c2: "done" }));
    expect(callsOf(second)).toEqual({ c3: "parked: Click C." });
    const secondDone = settled(second);
    personClick(document.querySelector("#c")!);
    await secondDone;
    expect(callsOf(second)).toEqual({ c3: "done" });
    expect(callsOf(first)).toEqual({ c1: "parked: Click A.", c2: "done" });
    const firstDone = settled(first);
    personClick(document.querySelector("#a")!);
    await firstDone;
    expect(callsOf(first)).toEqual({ c1: "done", c2: "done" });
  });
});

describe("the session in sessionStorage", () => {
  const key = "web-agents:chat";

  it("stores the conversation under the default key and restores it on a new session", async () => {
    const adapter = createScriptedAdapter({ runs: [[start(), say("Stored."), finish]] });
    const session = createAgentSession(adapter);
    const done = settled(session);
    session.send("remember me");
    await done;
    const restored = createAgentSession(adapter);
    expect(restored.getSnapshot().messages).toEqual(session.getSnapshot().messages);
    expect(JSON.parse(sessionStorage.getItem(key)!).messages).toHaveLength(2);
  });

  it("keeps only the last 60 messages, starting at a user message", async () => {
    const many: AgentMessage[] = Array.from({ length: 75 }, (_, index) => ({
      id: `m${index}`,
      role: index % 3 === 0 ? "user" : "assistant",
      parts: [{ type: "text", text: String(index) }],
    }));
    sessionStorage.setItem(key, JSON.stringify({ v: 1, messages: many }));
    const adapter = createScriptedAdapter({ runs: [[start("r"), say("ok", "r"), finish]] });
    const session = createAgentSession(adapter);
    const done = settled(session);
    session.send("one more");
    await done;
    const stored = JSON.parse(sessionStorage.getItem(key)!).messages as AgentMessage[];
    expect(stored.length).toBeLessThanOrEqual(60);
    expect(stored[0]!.role).toBe("user");
    expect(stored.at(-1)!.id).toBe("r");
  });

  it.each([
    ["not JSON", "{oops"],
    ["another version", JSON.stringify({ v: 99, messages: [] })],
    ["a foreign shape", JSON.stringify({ v: 1, messages: [{ id: 1, role: "bot", parts: "x" }] })],
    ["a bad tool state", JSON.stringify({ v: 1, messages: [{ id: "a", role: "assistant", parts: [{ type: "tool", id: "c", name: "n", state: "weird" }] }] })],
    ["a plain array", JSON.stringify([1, 2, 3])],
  ])("ignores %s and starts fresh", (_label, raw) => {
    sessionStorage.setItem(key, raw);
    const session = createAgentSession(createScriptedAdapter({ runs: [] }));
    expect(session.getSnapshot().messages).toEqual([]);
    expect(session.getSnapshot().status).toBe("idle");
  });

  it("loads calls that were running or parked as cancelled", () => {
    const saved: AgentMessage[] = [
      { id: "u", role: "user", parts: [{ type: "text", text: "buy" }] },
      {
        id: "a",
        role: "assistant",
        parts: [
          { type: "tool", id: "c1", name: "get_cart", input: {}, state: "done", output: { content: [] } },
          { type: "tool", id: "c2", name: "place_order", input: {}, state: "awaiting-confirmation", prompt: "Click" },
        ],
      },
    ];
    sessionStorage.setItem(key, JSON.stringify({ v: 1, messages: saved }));
    const parts = createAgentSession(createScriptedAdapter({ runs: [] })).getSnapshot().messages[1]!.parts as ToolPart[];
    expect(parts.map((part) => part.state)).toEqual(["done", "cancelled"]);
  });

  it("storageKey false writes nothing; reset clears what was stored", async () => {
    const adapter = createScriptedAdapter({ runs: [[start(), finish], [start(), finish]] });
    const memory = createAgentSession(adapter, { storageKey: false });
    let done = settled(memory);
    memory.send("x");
    await done;
    expect(sessionStorage.length).toBe(0);

    const stored = createAgentSession(adapter, { storageKey: "custom" });
    done = settled(stored);
    stored.send("y");
    await done;
    expect(sessionStorage.getItem("custom")).not.toBeNull();
    stored.reset();
    expect(sessionStorage.getItem("custom")).toBeNull();
    expect(stored.getSnapshot().messages).toEqual([]);
  });
});

describe("sub-agents", () => {
  const orders = defineWebAgent({
    id: "orders",
    description: "Answers questions about past orders.",
    instructions: ["Track orders."],
    tools: ["get_cart"],
    maxSteps: 2,
  });
  const shopper = defineWebAgent({ id: "shopper", instructions: "Help people shop.", agents: [orders] });

  it("runs a delegate_to_<id> call as the sub-agent's own nested run, seeing only the task and context", async () => {
    const adapter = createScriptedAdapter({
      runs: [
        [
          start("p1"),
          { type: "tool-call", messageId: "p1", id: "d1", name: "delegate_to_orders", input: { task: "Where is order 7?", context: "It was placed Monday." } },
          say("It arrives Friday.", "p1"),
          finish,
        ],
        [
          start("s1"),
          { type: "tool-call", messageId: "s1", id: "s-c1", name: "get_cart", input: {} },
          say("Order 7 arrives Friday.", "s1"),
          finish,
        ],
      ],
    });
    const session = createAgentSession(adapter, { agent: shopper, storageKey: false });
    const done = settled(session);
    session.send("Where is my order? It is 7.");
    await done;

    const [parent, sub] = adapter.requests;
    expect(parent!.agent).toBe("shopper");
    expect(parent!.tools.map((tool) => tool.name)).toEqual(["get_cart", "delegate_to_orders"]);
    expect(sub!.agent).toBe("orders");
    expect(sub!.tools.map((tool) => tool.name)).toEqual(["get_cart"]);
    expect(sub!.messages).toEqual([
      { id: expect.any(String), role: "user", parts: [{ type: "text", text: "Where is order 7?\n\nContext: It was placed Monday." }] },
    ]);
    expect(parent!.outputs[0]).toEqual({ content: [{ type: "text", text: "Order 7 arrives Friday." }] });

    const delegate = session.getSnapshot().messages[1]!.parts[0] as ToolPart;
    expect(delegate).toMatchObject({ name: "delegate_to_orders", state: "done" });
    expect(delegate.agent?.id).toBe("orders");
    expect(delegate.agent?.messages.map((message) => message.role)).toEqual(["user", "assistant"]);
    expect(delegate.agent?.messages[1]!.parts[0]).toMatchObject({ type: "tool", name: "get_cart", state: "done" });
    expect(session.getSnapshot().tools.map((tool) => tool.name)).toEqual(["get_cart", "delegate_to_orders"]);
  });

  it("answers a delegate call without a task, or to an unknown sub-agent, with an error result", async () => {
    const adapter = createScriptedAdapter({
      runs: [
        [
          start("p1"),
          { type: "tool-call", messageId: "p1", id: "d1", name: "delegate_to_orders", input: { context: "x" } },
          { type: "tool-call", messageId: "p1", id: "d2", name: "delegate_to_billing", input: { task: "x" } },
          finish,
        ],
      ],
    });
    const session = createAgentSession(adapter, { agent: shopper, storageKey: false });
    const done = settled(session);
    session.send("go");
    await done;
    const parts = session.getSnapshot().messages[1]!.parts as ToolPart[];
    expect(parts.map((part) => [part.state, part.error?.slice(0, 22)])).toEqual([
      ["error", "Error [invalid_input]:"],
      ["error", "Error [unknown_tool]: "],
    ]);
    expect(adapter.requests).toHaveLength(1);
  });
});

describe("createAgentSession: setOptions", () => {
  it("swaps the adapter in the same conversation: the run in progress stops, the next message goes to the new adapter with every earlier one", async () => {
    const first = createScriptedAdapter({ id: "first", runs: [[start(), say("One."), finish], [start("m2"), ...Array.from({ length: 50 }, () => say("x", "m2")), finish]], delay: 5 });
    const second = createScriptedAdapter({ id: "second", runs: [[start("m3"), say("Two.", "m3"), finish]] });
    const session = createAgentSession(first, { storageKey: false });
    const unsubscribe = session.subscribe(() => {});
    let done = settled(session);
    session.send("Hello");
    await done;
    session.send("Go on");
    await vi.waitFor(() => expect(session.getSnapshot().messages).toHaveLength(4));
    expect(session.getSnapshot().status).toBe("streaming");
    session.setOptions({ adapter: second });
    expect(session.adapter).toBe(second);
    expect(session.getSnapshot().status).toBe("idle");
    expect(session.getSnapshot().messages.map((message) => message.role)).toEqual(["user", "assistant", "user", "assistant"]);
    done = settled(session);
    session.send("And now?");
    await done;
    expect(second.requests[0]!.messages.map((message) => message.role)).toEqual(["user", "assistant", "user", "assistant", "user"]);
    expect(session.getSnapshot().messages.at(-1)!.parts).toEqual([{ type: "text", text: "Two." }]);
    unsubscribe();
  });

  it("reads the new adapter's status while watched, clears the old one's error, and changes nothing for the same adapter", async () => {
    const failing = createScriptedAdapter({ id: "failing", runs: [[{ type: "error", error: "No room.", code: "quota_exceeded" }]] });
    const other = createScriptedAdapter({ id: "other", runs: [], status: { state: "needs-download", bytes: 5 } });
    const session = createAgentSession(failing, { storageKey: false });
    const unsubscribe = session.subscribe(() => {});
    const done = settled(session);
    session.send("Hi");
    await done;
    expect(session.getSnapshot().status).toBe("error");
    const before = session.getSnapshot();
    session.setOptions({ adapter: failing });
    expect(session.getSnapshot()).toBe(before);
    session.setOptions({ adapter: other });
    expect(session.getSnapshot()).toMatchObject({ status: "idle", adapterStatus: { state: "needs-download", bytes: 5 } });
    expect(session.getSnapshot().error).toBeUndefined();
    other.setStatus({ state: "ready" });
    expect(session.getSnapshot().adapterStatus).toEqual({ state: "ready" });
    // The old adapter is no longer watched.
    failing.setStatus({ state: "error", error: "gone" });
    expect(session.getSnapshot().adapterStatus).toEqual({ state: "ready" });
    unsubscribe();
  });

  it("swaps the agent (its tools at once) and the tool policy; rejects what createAgentSession rejects", async () => {
    const session = createAgentSession(createScriptedAdapter({ runs: [] }), { storageKey: false });
    const unsubscribe = session.subscribe(() => {});
    await vi.waitFor(() => expect(session.getSnapshot().tools.map((tool) => tool.name)).toEqual(["get_cart"]));
    session.setOptions({ agent: defineWebAgent({ id: "none", instructions: "Nothing.", tools: [] }) });
    expect(session.getSnapshot().agent?.id).toBe("none");
    expect(session.getSnapshot().tools).toEqual([]);
    session.setOptions({ agent: undefined });
    expect(session.getSnapshot().tools.map((tool) => tool.name)).toEqual(["get_cart"]);
    expect(() => session.setOptions({ adapter: {} as AgentAdapter })).toThrow(TypeError);
    expect(() => session.setOptions({ confirmTools: "sometimes" as never })).toThrow(/confirmTools must be/);
    expect(() => session.setOptions({ agent: { id: "fake" } as never })).toThrow(/defineWebAgent/);
    unsubscribe();
  });
});
