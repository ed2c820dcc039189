// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { defineWebTool } from "../core/define-web-tool.js";
import { registerWebTool } from "../core/register-web-tool.js";
import { installHappyDomWebMCP, resetWebMCP } from "../core/test-fixtures/happy-dom-webmcp.js";
import type { AgentStreamPart } from "../session/agent-stream-part.js";
import { createAgentSession } from "../session/create-agent-session.js";
import * as reducer from "../session/session-reducer.js";
import { createLocalAdapter } from "./local/create-local-adapter.js";
import { EngineHostDouble } from "./local/test-fixtures/engine-host-double.js";

vi.mock("../session/session-reducer.js", async (original) => {
  const module = await original<typeof import("../session/session-reducer.js")>();
  return { ...module, sessionReducer: vi.fn(module.sessionReducer) };
});

let registration: AbortController;
beforeEach(async () => {
  installHappyDomWebMCP();
  registration = new AbortController();
  await registerWebTool(
    defineWebTool({ name: "add_to_cart", description: "Adds a product.", inputSchema: { type: "object", properties: { sku: { type: "string" } } }, execute: () => "Added." }),
    { signal: registration.signal },
  );
});
afterEach(() => {
  registration.abort();
  resetWebMCP();
});

describe("the step loop in a session", () => {
  it("applies each part once: the adapter reads its run's conversation from the session (req.conversation), and step 2 sees step 1's call and result", async () => {
    const engine = new EngineHostDouble({ cached: ["qwen3-0.6b/webgpu-q4f16"] });
    const adapter = createLocalAdapter({ catalog: { autoLoad: false }, worker: { host: engine } });
    await adapter.prepare();
    const session = createAgentSession(adapter, { storageKey: false });
    session.subscribe(() => {});
    const reduce = vi.mocked(reducer.sessionReducer);
    reduce.mockClear();
    session.send("Add socks");
    await expect.poll(() => session.getSnapshot().status, { timeout: 10_000 }).toBe("idle");

    const partsReduced = reduce.mock.calls.flatMap(([, action]) => (action.type === "part" ? [action.part] : []));
    const counts = new Map<AgentStreamPart, number>();
    for (const part of partsReduced) counts.set(part, (counts.get(part) ?? 0) + 1);
    expect([...counts.values()].every((count) => count === 1)).toBe(true);
    expect(partsReduced.map((part) => part.type)).toEqual(expect.arrayContaining(["message-start", "tool-call", "tool-result", "step-finish", "text-delta", "finish"]));
    // Step 2's prompt, built from the session's conversation: the call and its result, then the answer's turn.
    expect(engine.requests).toHaveLength(2);
    expect(engine.requests[1]!.messages.slice(-2).map((message) => message.role)).toEqual(["assistant", "tool"]);
    expect(engine.requests[1]!.messages.at(-1)!.content).toBe("Added.");
    session.dispose();
  });
});
