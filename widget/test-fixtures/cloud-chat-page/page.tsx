// A shop page with <AgentChat> and no adapter given: the chat uses the one
// shared createCloudAdapter(), which talks to this origin's /api/chat, where
// agent-chat.cloud.browser.test.ts mounts the real createChatHandler with a
// mock model. The test reads window.harness.
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { defineWebTool } from "../../../runtime/core/define-web-tool.js";
import { AgentChat } from "../../agent-chat.js";
import { WebAgentsProvider } from "../../web-agents-provider.js";

const calls: string[] = [];
const cart: string[] = [];
const badge = document.querySelector("#badge")!;

const tools = [
  defineWebTool({
    name: "add_to_cart",
    description: "Add a product to the cart.",
    inputSchema: { type: "object", properties: { sku: { type: "string" } }, required: ["sku"] },
    async execute(input: { sku: string }, { pointAt }) {
      calls.push(`add_to_cart:${input.sku}`);
      pointAt(badge, { action: "click" });
      await new Promise((resolve) => setTimeout(resolve, 150));
      cart.push(input.sku);
      badge.textContent = String(cart.length);
      return `Added ${input.sku}.`;
    },
  }),
  defineWebTool({
    name: "get_cart",
    description: "Read the cart.",
    execute: () => (calls.push("get_cart"), { items: [...cart] }),
  }),
];

createRoot(document.querySelector("#chat")!).render(
  <StrictMode>
    <WebAgentsProvider tools={tools}>
      <AgentChat storageKey="cloud-e2e-chat" style={{ height: 620 }} />
    </WebAgentsProvider>
  </StrictMode>,
);

Object.assign(window, { harness: { calls, cart: () => [...cart] } });
document.body.dataset.ready = "true";
