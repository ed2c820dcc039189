// A page with three tools and <AgentChat> driven by a scripted adapter, for
// agent-chat.browser.test.ts. The test reads window.harness.
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { defineWebTool } from "../../../runtime/core/define-web-tool.js";
import type { AgentRunRequest } from "../../../runtime/session/agent-adapter.js";
import type { AgentStreamPart } from "../../../runtime/session/agent-stream-part.js";
import { createScriptedAdapter } from "../../../runtime/testing/create-scripted-adapter.js";
import { AgentChat } from "../../agent-chat.js";
import { WebAgentsProvider } from "../../web-agents-provider.js";

const log = { calls: [] as string[] };
const badge = document.querySelector("#badge")!;
let cart = 0;

const tools = [
  defineWebTool({
    name: "add_to_cart",
    description: "Add the socks to the cart.",
    async execute(_input, { pointAt }) {
      log.calls.push("add_to_cart");
      pointAt(badge, { action: "click" });
      await new Promise((resolve) => setTimeout(resolve, 150));
      badge.textContent = String(++cart);
      return `The cart has ${cart} item(s).`;
    },
  }),
  defineWebTool({
    name: "write_note",
    description: "Write the gift note.",
    inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
    async execute(input: { text: string }, { pointAt }) {
      log.calls.push("write_note");
      const note = document.querySelector<HTMLInputElement>("#note")!;
      pointAt(note, { action: "type", text: input.text });
      note.value = input.text;
      await new Promise((resolve) => setTimeout(resolve, 150));
      return "Written.";
    },
  }),
  defineWebTool({
    name: "place_order",
    description: "Place the order. The person confirms with the Place order button.",
    async execute(_input, { waitForClick }) {
      log.calls.push("place_order");
      await waitForClick("#place-order", "Click Place order to confirm.");
      return { orderId: 7 };
    },
  }),
];

const lastUserText = (request: AgentRunRequest) => {
  const last = request.messages.at(-1)!;
  return last.role === "user" ? last.parts.map((part) => (part.type === "text" ? part.text : "")).join("") : undefined;
};

// Picks a script from the person's message; a request that ends with an
// assistant message is a Try again, resumed after its last finished call.
function script(request: AgentRunRequest): AgentStreamPart[] {
  const id = crypto.randomUUID();
  const text = (delta: string): AgentStreamPart => ({ type: "text-delta", messageId: id, delta });
  const call = (name: string, input: unknown = {}): AgentStreamPart => ({ type: "tool-call", messageId: id, id: crypto.randomUUID(), name, input });
  const start: AgentStreamPart = { type: "message-start", messageId: id };
  const finish: AgentStreamPart = { type: "finish", reason: "stop" };
  switch (lastUserText(request)) {
    case "Buy the socks":
      return [start, text("Adding **wool socks** to your cart."), call("add_to_cart"), call("write_note", { text: "Happy birthday!" }), call("place_order"), text(" Ordered: order 7."), finish];
    case "Tell me a long story":
      return [start, ...Array.from({ length: 80 }, (_, index) => text(`part${index} `)), finish];
    case "Add one more":
      return [start, call("add_to_cart"), { type: "error", error: "fetch failed", code: "network" }];
    case undefined:
      return [start, text("Resumed after the cart: nothing was added twice."), finish];
    default:
      return [start, text("I can buy the socks."), finish];
  }
}

const adapter = createScriptedAdapter({ id: "scripted", label: "Scripted", runs: Array.from({ length: 20 }, () => script), delay: 40 });

createRoot(document.querySelector("#chat")!).render(
  <StrictMode>
    <WebAgentsProvider tools={tools}>
      <AgentChat adapter={adapter} storageKey="e2e-chat" style={{ height: 620 }} />
    </WebAgentsProvider>
  </StrictMode>,
);

Object.assign(window, { harness: { log, adapter, cart: () => cart } });
document.body.dataset.ready = "true";
