// @vitest-environment happy-dom
import { act, StrictMode } from "react";
import { createRoot, type Root } from "react-dom/client";
import { afterEach, beforeEach, expect, it } from "vitest";
import { defineWebTool } from "../runtime/core/define-web-tool.js";
import { registerWebTool } from "../runtime/core/register-web-tool.js";
import { installHappyDomWebMCP, resetWebMCP } from "../runtime/core/test-fixtures/happy-dom-webmcp.js";
import type { ToolPart } from "../runtime/session/agent-message.js";
import type { AgentSession } from "../runtime/session/agent-session.js";
import type { AgentStreamPart } from "../runtime/session/agent-stream-part.js";
import { createScriptedAdapter } from "../runtime/testing/create-scripted-adapter.js";
import { useAgentSession } from "./use-agent-session.js";

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let root: Root;
let container: HTMLElement;
let registrations: AbortController;
let orders = 0;
beforeEach(async () => {
  installHappyDomWebMCP();
  orders = 0;
  registrations = new AbortController();
  await registerWebTool(
    defineWebTool({ name: "place_order", description: "Place the order.", annotations: { destructiveHint: true }, execute: () => ++orders }),
    { signal: registrations.signal },
  );
  container = document.createElement("div");
  document.body.append(container);
  root = createRoot(container);
});
afterEach(() => {
  act(() => root.unmount());
  container.remove();
  registrations.abort();
  resetWebMCP();
});

const orderRun = (): AgentStreamPart[] => [
  { type: "message-start", messageId: "m" },
  { type: "tool-call", messageId: "m", id: crypto.randomUUID(), name: "place_order", input: {} },
  { type: "finish", reason: "stop" },
];

const waitUntil = async (check: () => boolean) => {
  for (let tries = 0; tries < 200 && !check(); tries++) {
    await act(() => new Promise((resolve) => setTimeout(resolve, 10)));
  }
  expect(check()).toBe(true);
};

it("useAgentSession hands the tool policy to its session, asking the latest render's confirmTool", async () => {
  const adapter = createScriptedAdapter({ runs: [orderRun, orderRun] });
  let session: AgentSession | undefined;
  function Chat({ allow }: { allow: boolean }) {
    session = useAgentSession(adapter, { storageKey: false, confirmTools: "destructive", confirmTool: () => allow });
    return null;
  }
  const calls = () => session!.messages.flatMap((message) => message.parts).filter((part): part is ToolPart => part.type === "tool");
  act(() => root.render(<StrictMode><Chat allow={false} /></StrictMode>));
  act(() => session!.send("order"));
  await waitUntil(() => session!.status === "idle" && calls().length === 1);
  expect(calls()[0]!.error).toMatch(/^Error \[declined\]/);
  expect(orders).toBe(0);

  // A new render's confirmTool answers the next call, with the same store.
  act(() => root.render(<StrictMode><Chat allow={true} /></StrictMode>));
  act(() => session!.send("order again"));
  await waitUntil(() => session!.status === "idle" && calls().length === 2);
  expect(calls()[1]!.state).toBe("done");
  expect(orders).toBe(1);
});
