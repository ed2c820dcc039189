// A page with three tools and a session driven by a scripted adapter, for
// agent-session.browser.test.ts. The test reads window.harness.
import { defineWebTool, isNativeModelContext, registerWebTool, type WebToolContext } from "../../../core/index.js";
import { createScriptedAdapter } from "../../../testing/index.js";
import type { AgentStreamPart } from "../../agent-stream-part.js";
import { createAgentSession, type AgentSessionStore } from "../../create-agent-session.js";

const log = { active: 0, maxActive: 0, calls: [] as string[] };
const cart: string[] = [];
const badge = document.querySelector("#badge")!;

function tracked<I>(name: string, execute: (input: I, context: WebToolContext) => Promise<unknown>) {
  return async (input: I, context: WebToolContext) => {
    log.active++;
    log.maxActive = Math.max(log.maxActive, log.active);
    log.calls.push(name);
    try {
      return await execute(input, context);
    } finally {
      log.active--;
    }
  };
}

const tools = [
  defineWebTool({
    name: "get_cart",
    description: "Read the cart.",
    execute: tracked("get_cart", async () => ({ items: [...cart] })),
  }),
  defineWebTool({
    name: "add_to_cart",
    description: "Add a product to the cart.",
    inputSchema: { type: "object", properties: { sku: { type: "string" } }, required: ["sku"] },
    execute: tracked("add_to_cart", async (input: { sku: string }) => {
      await new Promise((resolve) => setTimeout(resolve, 30));
      cart.push(input.sku);
      badge.textContent = String(cart.length);
      return `Added ${input.sku}.`;
    }),
  }),
  defineWebTool({
    name: "place_order",
    description: "Place the order. The person confirms with the Place order button.",
    execute: tracked("place_order", async (_input, { waitForClick }) => {
      await waitForClick("#place-order", "Click Place order to confirm.");
      return { orderId: 7 };
    }),
  }),
];
for (const tool of tools) await registerWebTool(tool);

let session: AgentSessionStore | undefined;
const harness = {
  native: isNativeModelContext(),
  log,
  cart,
  start(runs: AgentStreamPart[][], storageKey: string | false = false) {
    session?.dispose();
    const adapter = createScriptedAdapter({ runs });
    session = createAgentSession(adapter, { storageKey });
    session.subscribe(() => {});
    harness.adapter = adapter;
  },
  adapter: undefined as ReturnType<typeof createScriptedAdapter> | undefined,
  snapshot() {
    const { messages, status, error, tools } = session!.getSnapshot();
    return { messages, status, error, tools };
  },
  send: (text: string) => session!.send(text),
  stop: () => session!.stop(),
  retry: () => session!.retry(),
};
Object.assign(window, { harness });
document.body.dataset.ready = "true";
