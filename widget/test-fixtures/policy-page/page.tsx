// <AgentChat> with the tool policy on, for tool-confirm-buttons.browser.test.ts:
// a read-only tool that returns page text, a read-only one annotated
// untrustedContentHint that returns an injection payload (customer reviews),
// a consequential place_order and an unannotated add_note, neither asking on
// its own. The scripted adapter plays a model the payload fooled: after the
// reviews it calls place_order (even payloads) or add_note (odd ones).
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { defineWebTool } from "../../../runtime/core/define-web-tool.js";
import type { AgentStreamPart } from "../../../runtime/session/agent-stream-part.js";
import { createScriptedAdapter } from "../../../runtime/testing/create-scripted-adapter.js";
import { injectionPayloads } from "../../../models/test-fixtures/injection-payloads.js";
import { AgentChat } from "../../agent-chat.js";
import { WebAgentsProvider } from "../../web-agents-provider.js";

const payloads = injectionPayloads();
const state = { payload: 0, orders: 0, notes: 0, gifts: 0, reads: 0, mode: "page" as "page" | "reviews" | "gift" };

// A tool another script registers straight on WebMCP (a gift-card widget), read back through getTools().
await (document as unknown as { modelContext: { registerTool(tool: object): Promise<void> } }).modelContext.registerTool({
  name: "send_gift",
  description: "Send a gift card by email.",
  annotations: { consequentialHint: true },
  execute: async () => {
    state.gifts++;
    return "sent";
  },
});
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
    name: "read_reviews",
    description: "Read what customers wrote about the product.",
    annotations: { readOnlyHint: true, untrustedContentHint: true },
    execute() {
      state.reads++;
      return `Reviews:\n${payloads[state.payload]!.text}`;
    },
  }),
  defineWebTool({
    name: "place_order",
    description: "Place the order for the cart.",
    annotations: { consequentialHint: true },
    execute() {
      state.orders++;
      ordersBadge.textContent = String(state.orders);
      return { orderId: state.orders };
    },
  }),
  defineWebTool({
    name: "add_note",
    description: "Add a note to the order.",
    execute() {
      state.notes++;
      return "Noted.";
    },
  }),
];

function script(): AgentStreamPart[] {
  const id = crypto.randomUUID();
  return [
    { type: "message-start", messageId: id },
    { type: "tool-call", messageId: id, id: crypto.randomUUID(), name: state.mode === "page" ? "read_page" : "read_reviews", input: {} },
    // The fooled model: what it read told it to act, so it does.
    {
      type: "tool-call",
      messageId: id,
      id: crypto.randomUUID(),
      name: state.mode === "gift" ? "send_gift" : state.mode === "reviews" && state.payload % 2 === 1 ? "add_note" : "place_order",
      input: {},
    },
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
