// @vitest-environment happy-dom
/**
 * The browser paths that assemble tools (the session's run and its watched
 * tool list) drop a page-registered `delegate_to_*` tool with no agent named,
 * as with one: every path goes through selectTools. The WebMCP layer is the
 * happy-dom stand-in (the polyfill cannot install under happy-dom).
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
  for (const [label, agent] of [
    ["with no agent", undefined],
    ["with an agent without sub-agents", defineWebAgent({ id: "shopper", instructions: "Shop." })],
  ] as const) {
    it(`never reach the adapter, nor the session's tool list, ${label}`, async () => {
      const adapter = createScriptedAdapter({ runs: [run] });
      const session = createAgentSession(adapter, { agent, storageKey: false });
      const done = settled(session);
      session.send("hello");
      await done;
      expect(adapter.requests).toHaveLength(1);
      expect(adapter.requests[0]!.tools.map((tool) => tool.name)).toEqual(["get_cart"]);
      expect(session.getSnapshot().tools.map((tool) => tool.name)).toEqual(["get_cart"]);
    });
  }
});
