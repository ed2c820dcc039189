// A page with shop tools and a session on the real createCloudAdapter, for
// cloud-adapter.browser.test.ts. The test's server mounts /api/chat.
import { defineWebTool, registerWebTool } from "../../../../core/index.js";
import { createAgentSession, type AgentSessionStore } from "../../../../session/create-agent-session.js";
import { createCloudAdapter } from "../../create-cloud-adapter.js";
import { shopper } from "./agents.js";

const cart: string[] = [];
const calls: string[] = [];
const badge = document.querySelector("#badge")!;
const tools = [
  defineWebTool({
    name: "get_cart",
    description: "Read the cart.",
    execute: () => (calls.push("get_cart"), { items: [...cart] }),
  }),
  defineWebTool({
    name: "add_to_cart",
    description: "Add a product to the cart.",
    inputSchema: { type: "object", properties: { sku: { type: "string" } }, required: ["sku"] },
    execute: (input: { sku: string }) => {
      calls.push("add_to_cart");
      cart.push(input.sku);
      badge.textContent = String(cart.length);
      return `Added ${input.sku}.`;
    },
  }),
  defineWebTool({
    name: "place_order",
    description: "Place the order. The person confirms with the Place order button.",
    execute: async (_input, { waitForClick }) => {
      calls.push("place_order");
      await waitForClick("#place-order", "Click Place order to confirm.");
      return { orderId: 7 };
    },
  }),
  defineWebTool({
    name: "track_order",
    description: "Where an order is.",
    inputSchema: { type: "object", properties: { id: { type: "number" } }, required: ["id"] },
    execute: (input: { id: number }) => (calls.push("track_order"), `Order ${input.id} arrives Friday.`),
  }),
];
for (const tool of tools) await registerWebTool(tool);

const adapter = createCloudAdapter({ maxSteps: 4 });
let session: AgentSessionStore | undefined;
const harness = {
  calls,
  start(withAgent: boolean) {
    session?.dispose();
    session = createAgentSession(adapter, { storageKey: false, ...(withAgent && { agent: shopper }) });
    session.subscribe(() => {});
  },
  label: () => adapter.label,
  status: () => adapter.status?.(),
  snapshot() {
    const { messages, status, error } = session!.getSnapshot();
    return { messages, status, error };
  },
  send: (text: string) => session!.send(text),
};
Object.assign(window, { harness });
document.body.dataset.ready = "true";
