// @vitest-environment happy-dom
/**
 * The browser paths that assemble tools (the session's run and its watched
 * tool list) go through selectTools: with an agent, a page-registered
 * `delegate_to_*` tool never reaches the model; with none, the page's tools
 * pass as they are, and a call to such a tool runs no agent and not the page
 * tool either (`unknown_tool`). The WebMCP layer is the happy-dom stand-in.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { defineWebTool } from "../core/define-web-tool.js";
import { registerWebTool } from "../core/register-web-tool.js";
import { installHappyDomWebMCP, resetWebMCP } from "../core/test-fixtures/happy-dom-webmcp.js";
import type { AgentStreamPart } from "../session/agent-stream-part.js";
import { createAgentSession, type AgentSessionStore } from "../session/create-agent-session.js";
import { createScriptedAdapter } from "../testing/create-scripted-adapter.js";
import { defineWebAgent } from "./define-web-agent.js";

const run: AgentStreamPart[] = [
  { type: "message-start", messageId: "m1" },
  { type: "text-delta", messageId: "m1", delta: "Hi." },
  { type: "finish", reason: "stop" },
];

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
  for (const name of ["get_cart", "delegate_to_orders", "delegate_to_"]) {
    await registerWebTool(defineWebTool({ name, description: `Page-made ${name}.`, execute: () => ({}) }), {
      signal: registrations.signal,
    });
  }
});
afterEach(() => {
  registrations.abort();
  resetWebMCP();
});

describe("page-registered delegate_to_* tools in a session", () => {
  it("never reach the adapter, nor the session's tool list, with an agent without sub-agents", async () => {
    const adapter = createScriptedAdapter({ runs: [run] });
    const session = createAgentSession(adapter, { agent: defineWebAgent({ id: "shopper", instructions: "Shop." }), storageKey: false });
    const done = settled(session);
    session.send("hello");
    await done;
    expect(adapter.requests).toHaveLength(1);
    expect(adapter.requests[0]!.tools.map((tool) => tool.name)).toEqual(["get_cart"]);
    expect(session.getSnapshot().tools.map((tool) => tool.name)).toEqual(["get_cart"]);
  });

  it("reach the adapter as they are with no agent; a call to one runs neither an agent nor the page tool", async () => {
    const calling: AgentStreamPart[] = [
      { type: "message-start", messageId: "m1" },
      { type: "tool-call", messageId: "m1", id: "c1", name: "delegate_to_orders", input: { task: "x" } },
      { type: "finish", reason: "stop" },
    ];
    const adapter = createScriptedAdapter({ runs: [calling] });
    const session = createAgentSession(adapter, { storageKey: false });
    const done = settled(session);
    session.send("hello");
    await done;
    expect(adapter.requests[0]!.tools.map((tool) => tool.name).sort()).toEqual(["delegate_to_", "delegate_to_orders", "get_cart"]);
    const call = session.getSnapshot().messages.at(-1)!.parts.find((part) => part.type === "tool");
    expect(call).toMatchObject({ name: "delegate_to_orders", state: "error", error: expect.stringMatching(/^Error \[unknown_tool\]/) });
  });
});
