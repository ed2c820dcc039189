// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { emitAgentEvent } from "../core/agent-events.js";
import { AFTER_CALL_SETTLE } from "../core/settle-tools.js";
import { defineWebTool } from "../core/define-web-tool.js";
import { registerWebTool } from "../core/register-web-tool.js";
import { installHappyDomWebMCP, resetWebMCP } from "../core/test-fixtures/happy-dom-webmcp.js";
import { createScriptedAdapter } from "../testing/create-scripted-adapter.js";
import type { AgentAdapter } from "./agent-adapter.js";
import type { AgentStreamPart } from "./agent-stream-part.js";
import { createAgentSession, type AgentSessionStore } from "./create-agent-session.js";
import { CONTINUE_TURN_WITHIN_MS, createTurnCarry } from "./turn-carry.js";

// A full-page navigation in one document: the first page's session is left running (a page that
// goes runs nothing more), `pagehide` is dispatched, and a second session on the same
// sessionStorage is the next page's.
const GO_TO = { type: "tool-call", messageId: "m1", id: "c1", name: "go_to", input: { page: "cart" } } as const satisfies AgentStreamPart;

/** The first page's adapter: calls go_to, then waits as a model would while the page goes. */
function navigatingAdapter(): AgentAdapter {
  return {
    id: "local",
    label: "Local",
    async *run(req) {
      yield { type: "message-start", messageId: "m1" };
      yield GO_TO;
      const output = await req.callTool({ id: GO_TO.id, name: GO_TO.name, input: GO_TO.input });
      yield { type: "tool-result", id: GO_TO.id, output };
      await new Promise(() => {});
    },
  };
}

const settled = (session: AgentSessionStore) =>
  new Promise<void>((resolve) => {
    const unsubscribe = session.subscribe(() => {
      if (session.getSnapshot().status === "idle") {
        unsubscribe();
        resolve();
      }
    });
  });
/** Longer than a continuation waits for the page's tools to settle (no toolchange here: their quiet time). */
const pastSettle = () => new Promise((resolve) => setTimeout(resolve, AFTER_CALL_SETTLE.quietMs * 3));
const waitUntil = async (check: () => boolean) => {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 1));
};

let registrations: AbortController;
let navigations = 0;
const pages: AgentSessionStore[] = [];
beforeEach(async () => {
  installHappyDomWebMCP();
  registrations = new AbortController();
  sessionStorage.clear();
  navigations = 0;
  await registerWebTool(defineWebTool({ name: "go_to", description: "Open a page.", execute: () => ((navigations += 1), "Opening the cart.") }), { signal: registrations.signal });
});
afterEach(() => {
  pages.splice(0).forEach((page) => page.dispose());
  registrations.abort();
  resetWebMCP();
});

/** The first page: sends, and goes once go_to has answered. */
async function firstPageGoes(): Promise<void> {
  const first = createAgentSession(navigatingAdapter());
  pages.push(first);
  first.subscribe(() => {});
  first.send("Put socks in my cart and show it");
  await waitUntil(() => first.getSnapshot().messages.at(-1)?.parts.some((part) => part.type === "tool" && part.state === "done") === true);
  window.dispatchEvent(new Event("pagehide"));
}

describe("a turn that continues on the next page of the site", () => {
  it("continues from its last finished call, once watched: the call is not run again, and the answer follows it in the same turn", async () => {
    await firstPageGoes();
    const adapter = createScriptedAdapter({ runs: [[{ type: "message-start", messageId: "m2" }, { type: "text-delta", messageId: "m2", delta: "Your cart has socks." }, { type: "finish", reason: "stop" }]] });
    const next = createAgentSession(adapter);
    pages.push(next);
    expect(adapter.requests).toHaveLength(0);
    next.subscribe(() => {});
    await waitUntil(() => adapter.requests[0]?.ended !== undefined && next.getSnapshot().status === "idle");
    expect(navigations).toBe(1);
    // The request: the user's message and the finished go_to call with its result.
    expect(adapter.requests[0]!.messages.map((message) => message.parts.map((part) => (part.type === "tool" ? `${part.name}:${part.state}` : part.type)))).toEqual([["text"], ["go_to:done"]]);
    const { messages, status } = next.getSnapshot();
    expect(status).toBe("idle");
    // One turn: the user's message once, then the assistant's, the call once.
    expect(messages.map((message) => [message.role, ...message.parts.map((part) => (part.type === "text" ? part.text : part.type === "tool" ? `${part.name}:${part.state}` : part.type))])).toEqual([
      ["user", "Put socks in my cart and show it"],
      ["assistant", "go_to:done"],
      ["assistant", "Your cart has socks."],
    ]);
  });

  it("a session replaced before the page's tools settle (<web-agents-chat> given its adapters) leaves the turn to the one after it", async () => {
    await firstPageGoes();
    const placeholder = createScriptedAdapter({ runs: [] });
    const replaced = createAgentSession(placeholder);
    replaced.subscribe(() => {});
    replaced.dispose();
    const adapter = createScriptedAdapter({ runs: [[{ type: "message-start", messageId: "m2" }, { type: "finish", reason: "stop" }]] });
    const next = createAgentSession(adapter);
    pages.push(next);
    next.subscribe(() => {});
    await waitUntil(() => adapter.requests[0]?.ended !== undefined);
    expect(placeholder.requests).toHaveLength(0);
  });

  it.each([
    { case: "still waiting for its first part", placeholder: async function* (): AsyncGenerator<AgentStreamPart> {
      await new Promise(() => {});
    } },
    { case: "failed (a cloud endpoint without a key)", placeholder: async function* (): AsyncGenerator<AgentStreamPart> {
      yield { type: "error", error: "The chat is not set up on this server." };
    } },
  ])("an adapter the page gives after the turn went on ($case on the chat's default one) takes the turn over, from the same last finished call", async ({ placeholder }) => {
    await firstPageGoes();
    const next = createAgentSession({ id: "cloud", label: "Cloud", run: placeholder });
    pages.push(next);
    next.subscribe(() => {});
    await waitUntil(() => next.getSnapshot().status !== "idle");
    await pastSettle();
    const adapter = createScriptedAdapter({ runs: [[{ type: "message-start", messageId: "m2" }, { type: "text-delta", messageId: "m2", delta: "Your cart has socks." }, { type: "finish", reason: "stop" }]] });
    next.setOptions({ adapter });
    await waitUntil(() => adapter.requests[0]?.ended !== undefined && next.getSnapshot().status === "idle");
    expect(navigations).toBe(1);
    const { messages, error } = next.getSnapshot();
    expect(error).toBeUndefined();
    expect(messages.some((message) => message.stopped)).toBe(false);
    expect(messages.map((message) => [message.role, ...message.parts.map((part) => (part.type === "text" ? part.text : part.type === "tool" ? `${part.name}:${part.state}` : part.type))])).toEqual([
      ["user", "Put socks in my cart and show it"],
      ["assistant", "go_to:done"],
      ["assistant", "Your cart has socks."],
    ]);
  });

  it("an adapter the person picks after sending does not restart anything: a run the person started stops as before", async () => {
    const next = createAgentSession({ id: "cloud", label: "Cloud", run: async function* () {
      await new Promise(() => {});
    } });
    pages.push(next);
    next.subscribe(() => {});
    next.send("Hello");
    const adapter = createScriptedAdapter({ runs: [] });
    next.setOptions({ adapter });
    expect(next.getSnapshot().status).toBe("idle");
    expect(next.getSnapshot().messages.at(-1)?.stopped).toBe(true);
    expect(adapter.requests).toHaveLength(0);
  });

  it("does not continue a turn whose call waited for the person's click: the call is cancelled, never run", async () => {
    const parked: AgentAdapter = {
      id: "local",
      label: "Local",
      async *run() {
        yield { type: "message-start", messageId: "m1" };
        yield { type: "tool-call", messageId: "m1", id: "c9", name: "place_order", input: {} };
        await new Promise(() => {});
      },
    };
    const first = createAgentSession(parked);
    pages.push(first);
    first.subscribe(() => {});
    first.send("Order it");
    // The core's event when it parks a call for the person's click (core/agent-events.ts).
    await waitUntil(() => first.getSnapshot().messages[1]?.parts.length === 1);
    emitAgentEvent({ type: "park", tool: "place_order", callId: "c9", prompt: "Click to order" });
    await waitUntil(() => first.getSnapshot().messages.at(-1)?.parts.some((part) => part.type === "tool" && part.state === "awaiting-confirmation") === true);
    window.dispatchEvent(new Event("pagehide"));

    const adapter = createScriptedAdapter({ runs: [] });
    const next = createAgentSession(adapter);
    pages.push(next);
    next.subscribe(() => {});
    await pastSettle();
    expect(adapter.requests).toHaveLength(0);
    expect(next.getSnapshot().messages[1]!.parts[0]).toMatchObject({ type: "tool", name: "place_order", state: "cancelled" });
  });

  it("does not continue when the person sends first", async () => {
    await firstPageGoes();
    const adapter = createScriptedAdapter({ runs: [[{ type: "message-start", messageId: "m3" }, { type: "text-delta", messageId: "m3", delta: "Hello." }, { type: "finish", reason: "stop" }]] });
    const next = createAgentSession(adapter);
    pages.push(next);
    const done = settled(next);
    next.send("Something else");
    await done;
    expect(adapter.requests).toHaveLength(1);
    expect(adapter.requests[0]!.messages.at(-1)!.parts).toEqual([{ type: "text", text: "Something else" }]);
    expect(navigations).toBe(1);
  });

  it("a page that comes back from the back-forward cache forgets the turn it left: the next page does not continue it", async () => {
    await firstPageGoes();
    window.dispatchEvent(Object.assign(new Event("pageshow"), { persisted: true }));
    const adapter = createScriptedAdapter({ runs: [] });
    const next = createAgentSession(adapter);
    pages.push(next);
    next.subscribe(() => {});
    await pastSettle();
    expect(adapter.requests).toHaveLength(0);
  });
});

describe("createTurnCarry", () => {
  const storage = () => {
    const items = new Map<string, string>();
    return { getItem: (key: string) => items.get(key) ?? null, setItem: (key: string, value: string) => void items.set(key, value), removeItem: (key: string) => void items.delete(key), items } as unknown as Storage & { items: Map<string, string> };
  };

  it("is taken once, within the window, and only for a turn no click was awaited in", () => {
    let now = 1_000_000;
    const kept = storage();
    const carry = createTurnCarry("chat", kept, () => now);
    carry.leave(false);
    expect(kept.items.has("chat:turn")).toBe(true);
    now += CONTINUE_TURN_WITHIN_MS - 1;
    expect(carry.take()).toBe(true);
    expect(carry.take()).toBe(false);

    carry.leave(false);
    now += CONTINUE_TURN_WITHIN_MS;
    expect(carry.take()).toBe(false);

    carry.leave(true);
    expect(carry.take()).toBe(false);
    expect(kept.items.size).toBe(0);
  });

  it("ignores what it cannot read, and keeps nothing with storageKey false", () => {
    const kept = storage();
    kept.setItem("chat:turn", "{not json");
    expect(createTurnCarry("chat", kept).take()).toBe(false);
    kept.setItem("chat:turn", JSON.stringify({ v: 2, at: Date.now(), parked: false }));
    expect(createTurnCarry("chat", kept).take()).toBe(false);
    const none = createTurnCarry(false, kept);
    none.leave(false);
    expect(none.take()).toBe(false);
  });
});
