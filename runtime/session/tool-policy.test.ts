// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { onAgentEvent, type AgentEvent } from "../core/agent-events.js";
import { defineWebTool, type WebToolAnnotations } from "../core/define-web-tool.js";
import { registerWebTool } from "../core/register-web-tool.js";
import { installFakeNativeModelContext, installHappyDomWebMCP, personClick, resetWebMCP } from "../core/test-fixtures/happy-dom-webmcp.js";
import { pendingToolConfirmation } from "../core/tool-confirmation.js";
import { createScriptedAdapter } from "../testing/create-scripted-adapter.js";
import type { ToolPart } from "./agent-message.js";
import type { AgentStreamPart } from "./agent-stream-part.js";
import { createAgentSession, type AgentSessionStore, type CreateAgentSessionOptions } from "./create-agent-session.js";
import { CONFIRM_TOOLS_POLICIES, confirmationReason, needsConfirmation, readToolHints, type ToolHints } from "./tool-policy.js";

describe("needsConfirmation", () => {
  const cases: [ToolHints, boolean, boolean, boolean, boolean][] = [
    // hints, consequential (the default; "destructive" is its alias), unannotated, all, after untrusted content
    [{ readOnlyHint: true }, false, false, false, false],
    [{ readOnlyHint: true, consequentialHint: true }, false, false, false, false],
    [{ readOnlyHint: true, untrustedContentHint: true }, false, false, false, false],
    [{ consequentialHint: true }, true, true, true, true],
    [{ destructiveHint: true }, true, true, true, true],
    [{}, false, true, true, true],
    [{ consequentialHint: false }, false, false, true, true],
    [{ destructiveHint: false }, false, false, true, true],
    [{ readOnlyHint: false }, false, false, true, true],
    [{ untrustedContentHint: true }, false, true, true, true],
  ];
  it.each(cases)("%j: consequential %s, unannotated %s, all %s; after untrusted content %s", (hints, consequential, unannotated, all, afterUntrusted) => {
    expect(needsConfirmation(hints)).toBe(consequential);
    expect(needsConfirmation(hints, "consequential")).toBe(consequential);
    expect(needsConfirmation(hints, "destructive")).toBe(consequential);
    expect(needsConfirmation(hints, "unannotated")).toBe(unannotated);
    expect(needsConfirmation(hints, "all")).toBe(all);
    // Whatever the policy says, once the turn has read untrusted content.
    for (const policy of CONFIRM_TOOLS_POLICIES) expect(needsConfirmation(hints, policy, true)).toBe(afterUntrusted);
  });

  it("says why a call waits: its annotations, or the untrusted content the turn read", () => {
    expect(confirmationReason({ consequentialHint: true }, "consequential", true)).toBe("annotations");
    expect(confirmationReason({}, "consequential", true)).toBe("untrusted-content");
    expect(confirmationReason({ readOnlyHint: true }, "all", true)).toBeUndefined();
  });
});

const runs = new Map<string, number>();
let registrations: AbortController;
let events: AgentEvent[];
let stopEvents: () => void;

async function register(name: string, annotations?: WebToolAnnotations): Promise<void> {
  await registerWebTool(
    defineWebTool({
      name,
      description: `The ${name} tool.`,
      ...(annotations && { annotations }),
      execute: () => {
        runs.set(name, (runs.get(name) ?? 0) + 1);
        return `${name} ran`;
      },
    }),
    { signal: registrations.signal },
  );
}

beforeEach(async () => {
  installHappyDomWebMCP();
  registrations = new AbortController();
  runs.clear();
  events = [];
  stopEvents = onAgentEvent((event) => events.push(event));
  await register("read_cart", { readOnlyHint: true });
  await register("place_order", { destructiveHint: true });
  await register("add_note");
});
afterEach(() => {
  stopEvents();
  registrations.abort();
  resetWebMCP();
  document.body.innerHTML = "";
});

/** A session whose one run calls `name` once (id `c1`), then says "end". */
function sessionCalling(name: string, options: CreateAgentSessionOptions = {}): AgentSessionStore {
  const parts: AgentStreamPart[] = [
    { type: "message-start", messageId: "m1" },
    { type: "tool-call", messageId: "m1", id: "c1", name, input: {} },
    { type: "text-delta", messageId: "m1", delta: "end" },
    { type: "finish", reason: "stop" },
  ];
  const session = createAgentSession(createScriptedAdapter({ runs: [parts] }), { storageKey: false, ...options });
  session.subscribe(() => {});
  session.send("go");
  return session;
}

const call = (session: AgentSessionStore) =>
  session.getSnapshot().messages.flatMap((message) => message.parts).find((part): part is ToolPart => part.type === "tool");
const idle = (session: AgentSessionStore) => vi.waitFor(() => expect(session.getSnapshot().status).toBe("idle"));

/** The controls a chat would render, attached to the held call `c1`. */
function attachControls(): { allow: HTMLButtonElement; deny: HTMLButtonElement } {
  document.body.innerHTML = `<button id="allow"><span>Allow</span></button><button id="deny">Don't allow</button>`;
  const allow = document.querySelector<HTMLButtonElement>("#allow")!;
  const deny = document.querySelector<HTMLButtonElement>("#deny")!;
  pendingToolConfirmation("c1")!.attach(allow, deny);
  return { allow, deny };
}

describe("the tool policy in a session", () => {
  it("runs a readOnlyHint tool without asking", async () => {
    const session = sessionCalling("read_cart", { confirmTools: "all" });
    await idle(session);
    expect(call(session)).toMatchObject({ state: "done" });
    expect(runs.get("read_cart")).toBe(1);
    expect(events.some((event) => event.type === "park")).toBe(false);
  });

  it("holds a destructiveHint tool until the person's own click on Allow; a scripted click does nothing", async () => {
    const session = sessionCalling("place_order");
    await vi.waitFor(() => expect(call(session)).toMatchObject({ state: "awaiting-confirmation", prompt: "The assistant wants to place order. Allow it?" }));
    const { allow } = attachControls();
    expect(events.filter((event) => event.type === "park").at(-1)).toMatchObject({ tool: "place_order", callId: "c1", target: allow });
    // Allow decides inside its click handler, and only for a trusted click (core/tool-confirmation.ts):
    // no event from the scripted clicks, and the confirmation still pending, prove they released nothing.
    const before = events.length;
    allow.click();
    allow.dispatchEvent(new MouseEvent("click", { bubbles: true }));
    expect(events.slice(before)).toEqual([]);
    expect(pendingToolConfirmation("c1")).toBeDefined();
    expect(call(session)?.state).toBe("awaiting-confirmation");
    expect(runs.get("place_order")).toBeUndefined();
    personClick(allow.querySelector("span")!);
    await idle(session);
    expect(call(session)).toMatchObject({ state: "done" });
    expect(runs.get("place_order")).toBe(1);
    expect(pendingToolConfirmation("c1")).toBeUndefined();
  });

  it("Don't allow ends the call with Error [declined], which the model sees; the tool never runs", async () => {
    const session = sessionCalling("place_order");
    await vi.waitFor(() => expect(pendingToolConfirmation("c1")).toBeDefined());
    const { deny } = attachControls();
    // Decided inside the click handler, for a trusted click only: nothing emitted, still pending.
    const before = events.length;
    deny.click();
    expect(events.slice(before)).toEqual([]);
    expect(pendingToolConfirmation("c1")).toBeDefined();
    expect(call(session)?.state).toBe("awaiting-confirmation");
    personClick(deny);
    await idle(session);
    expect(call(session)?.state).toBe("error");
    expect(call(session)?.error).toMatch(/^Error \[declined\]: The person did not allow place_order/);
    expect(runs.get("place_order")).toBeUndefined();
    expect(events.at(-1)).toMatchObject({ type: "end", tool: "place_order", callId: "c1", isError: true });
  });

  it("Stop while held cancels the call without running it", async () => {
    const session = sessionCalling("place_order");
    await vi.waitFor(() => expect(pendingToolConfirmation("c1")).toBeDefined());
    session.stop();
    await vi.waitFor(() => expect(pendingToolConfirmation("c1")).toBeUndefined());
    expect(call(session)?.state).toBe("cancelled");
    expect(runs.get("place_order")).toBeUndefined();
  });

  it('holds an unannotated tool only when the site opts in with "unannotated"', async () => {
    const plain = sessionCalling("add_note");
    await idle(plain);
    expect(runs.get("add_note")).toBe(1);
    plain.dispose();
    const strict = sessionCalling("add_note", { confirmTools: "unannotated" });
    await vi.waitFor(() => expect(call(strict)?.state).toBe("awaiting-confirmation"));
    personClick(attachControls().allow);
    await idle(strict);
    expect(runs.get("add_note")).toBe(2);
  });

  it("asks the site's confirmTool first: true runs, false declines, undefined asks the person", async () => {
    const seen: unknown[] = [];
    const yes = sessionCalling("place_order", { confirmTool: (request) => (seen.push(request), true) });
    await idle(yes);
    expect(runs.get("place_order")).toBe(1);
    expect(seen).toEqual([{ tool: "place_order", callId: "c1", input: {}, annotations: { destructiveHint: true }, untrustedContent: false }]);
    yes.dispose();
    const no = sessionCalling("place_order", { confirmTool: () => false });
    await idle(no);
    expect(call(no)?.error).toMatch(/^Error \[declined\]/);
    no.dispose();
    const ask = sessionCalling("place_order", { confirmTool: () => undefined });
    await vi.waitFor(() => expect(call(ask)?.state).toBe("awaiting-confirmation"));
    personClick(attachControls().allow);
    await idle(ask);
    expect(runs.get("place_order")).toBe(2);
  });

  it("declines a held call in a headless session (agent.invoke) with no confirmTool, telling the developer once", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const session = sessionCalling("place_order", { headless: true });
    await idle(session);
    expect(call(session)?.error).toMatch(/^Error \[declined\]: place_order needs the person's confirmation, and there was no one to ask/);
    expect(runs.get("place_order")).toBeUndefined();
    expect(warn.mock.calls.flat().join(" ")).toMatch(/Pass confirmTool to agent\.invoke/);
    warn.mockRestore();
  });

  it("rejects a bad confirmTools or confirmTool with a TypeError that names the fix", () => {
    const adapter = createScriptedAdapter({ runs: [] });
    expect(() => createAgentSession(adapter, { confirmTools: "some" as never })).toThrow(/confirmTools must be "consequential", "destructive", "unannotated" or "all"/);
    expect(() => createAgentSession(adapter, { confirmTool: true as never })).toThrow(/confirmTool a function/);
  });
});

describe("readToolHints", () => {
  it("reads a native page tool's annotations: WebMCP's consequentialHint holds the call, untrustedContentHint is read too", async () => {
    const { restore } = installFakeNativeModelContext([
      { name: "wire_money", description: "Send money.", inputSchema: "{}", annotations: { consequentialHint: true, untrustedContentHint: false } },
      { name: "plain", description: "Plain.", inputSchema: "{}" },
    ]);
    try {
      expect(await readToolHints("wire_money")).toEqual({ consequentialHint: true, untrustedContentHint: false });
      expect(needsConfirmation(await readToolHints("wire_money"))).toBe(true);
      expect(await readToolHints("plain")).toEqual({});
      expect(await readToolHints("missing")).toEqual({});
    } finally {
      restore();
    }
  });
});
