// <AgentChat> with the tool policy on, for tool-confirm-buttons.browser.test.ts:
// a read-only tool that returns an injection payload (as page text), and a
// destructive place_order that never asks on its own. The scripted adapter
// plays a model the payload fooled: it always calls place_order next.
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { defineWebTool } from "../../../runtime/core/define-web-tool.js";
import type { AgentStreamPart } from "../../../runtime/session/agent-stream-part.js";
import { createScriptedAdapter } from "../../../runtime/testing/create-scripted-adapter.js";
import { injectionPayloads } from "../../../models/test-fixtures/injection-payloads.js";
import { AgentChat } from "../../agent-chat.js";
import { WebAgentsProvider } from "../../web-agents-provider.js";

const payloads = injectionPayloads();
const state = { payload: 0, orders: 0, reads: 0 };
const ordersBadge = document.querySelector("#orders")!;

const tools = [
  defineWebTool({
    name: "read_page",
    description: "Read the product page's text.",
    annotations: { readOnlyHint: true },
    execute() {
      state.reads++;
      return `Trail socks. Reviews:\n${payloads[state.payload]!.text}`;
    },
  }),
  defineWebTool({
    name: "place_order",
    description: "Place the order for the cart.",
    annotations: { destructiveHint: true },
    execute() {
      state.orders++;
      ordersBadge.textContent = String(state.orders);
      return { orderId: state.orders };
    },
  }),
];

function script(): AgentStreamPart[] {
  const id = crypto.randomUUID();
  return [
    { type: "message-start", messageId: id },
    { type: "tool-call", messageId: id, id: crypto.randomUUID(), name: "read_page", input: {} },
    // The fooled model: the page text told it to order, so it does.
    { type: "tool-call", messageId: id, id: crypto.randomUUID(), name: "place_order", input: {} },
    { type: "text-delta", messageId: id, delta: "Finished." },
    { type: "finish", reason: "stop" },
  ];
}

const adapter = createScriptedAdapter({ id: "scripted", label: "Scripted", runs: Array.from({ length: 400 }, () => script) });

createRoot(document.querySelector("#chat")!).render(
  <StrictMode>
    <WebAgentsProvider tools={tools}>
      <AgentChat adapter={adapter} storageKey={false} style={{ height: 620 }} />
    </WebAgentsProvider>
  </StrictMode>,
);

Object.assign(window, { harness: { state, payloadCount: payloads.length } });
document.body.dataset.ready = "true";
