/**
 * The example from the defineWebAgent page, as written there, with the
 * `tools` it imports made here from defineWebTool.
 */
import { describe, expect, it } from "vitest";
import { defineWebTool } from "../core/define-web-tool.js";
import type { ToolDescriptor } from "../session/tool-descriptor.js";
import { defineWebAgent, flattenWebAgents, selectTools } from "./index.js";
import { isWebAgent } from "./is-web-agent.js";

const tools = {
  getTime: defineWebTool({ name: "get_time", description: "Gives the current time.", execute: () => new Date().toISOString() }),
  getPage: defineWebTool({ name: "get_page", description: "Reads the page the person is on.", execute: () => "home" }),
  goTo: defineWebTool({
    name: "go_to",
    description: "Opens a page of the store.",
    inputSchema: { type: "object", properties: { page: { type: "string" } }, required: ["page"] },
    execute: () => "ok",
  }),
  getCart: defineWebTool({ name: "get_cart", description: "Reads the cart.", execute: () => [] }),
  listOrders: defineWebTool({ name: "list_orders", description: "Lists past orders.", execute: () => [] }),
  trackOrder: defineWebTool({
    name: "track_order",
    description: "Says where an order is.",
    inputSchema: { type: "object", properties: { orderId: { type: "string" } }, required: ["orderId"] },
    execute: () => "shipped",
  }),
};

// Plain data: no DOM, no secrets. The page and your /api/chat route
// both import this file.
export const orders = defineWebAgent({
  id: "orders",
  description: "Answers questions about past orders: what was bought, and " + "where an order is now.",
  instructions: [
    "list_orders and track_order are on the orders page: " + "go_to orders first.",
    "Answer with the order's id, its status and when it arrives.",
  ],
  tools: [tools.goTo, tools.listOrders, tools.trackOrder],
  // A faster model is enough for this narrow job.
  model: "anthropic/claude-sonnet-5-5",
});

export const shopper = defineWebAgent({
  id: "shopper",
  instructions: [
    "You help people shop at Field Store.",
    "Read the cart with get_cart before you change it.",
    "add_to_cart is on a product's page only.",
    "Hand questions about past orders to the orders agent.",
  ],
  tools: [
    tools.getTime,
    tools.getPage,
    tools.goTo,
    tools.getCart,
    // A tool a component owns (useWebTool) goes in by its id.
    "add_to_cart",
    "place_order",
  ],
  agents: [orders],
});

// What your /api/chat route serves: the top-level agents. A
// sub-agent is found through its parent.
export const agents = [shopper];

function descriptor(name: string): ToolDescriptor {
  return { name, description: `Does ${name}.`, inputSchema: { type: "object", properties: {} } };
}

describe("the defineWebAgent page's example", () => {
  it("gives frozen agents, arrays frozen too", () => {
    for (const agent of [orders, shopper]) {
      expect(isWebAgent(agent)).toBe(true);
      expect(Object.isFrozen(agent)).toBe(true);
      expect(Object.isFrozen(agent.instructions)).toBe(true);
      expect(Object.isFrozen(agent.tools)).toBe(true);
      expect(Object.isFrozen(agent.agents)).toBe(true);
    }
  });

  it("fills the defaults and keeps what was given", () => {
    expect(orders.description).toBe("Answers questions about past orders: what was bought, and where an order is now.");
    expect(orders.model).toBe("anthropic/claude-sonnet-5-5");
    expect(orders.agents).toEqual([]);
    expect(orders.maxSteps).toBeUndefined();
    expect(shopper.description).toBe("Hand a task to the shopper agent.");
    expect(shopper.model).toBeUndefined();
    expect(shopper.agents).toEqual([orders]);
    expect(shopper.instructions).toEqual([
      "You help people shop at Field Store.",
      "Read the cart with get_cart before you change it.",
      "add_to_cart is on a product's page only.",
      "Hand questions about past orders to the orders agent.",
    ]);
    expect(orders.instructions).toEqual([
      "list_orders and track_order are on the orders page: go_to orders first.",
      "Answer with the order's id, its status and when it arrives.",
    ]);
  });

  it("keeps tools as ids, tool objects replaced by their names", () => {
    expect(orders.tools).toEqual(["go_to", "list_orders", "track_order"]);
    expect(shopper.tools).toEqual(["get_time", "get_page", "go_to", "get_cart", "add_to_cart", "place_order"]);
  });

  it("selects the shopper's tools from the page: page order, unknown ids ignored, the delegate appended", () => {
    const page = ["add_to_cart", "list_orders", "get_cart", "search", "go_to", "get_time", "delegate_to_orders"].map(
      descriptor,
    );
    const selected = selectTools(shopper, page);
    expect(selected.map((tool) => tool.name)).toEqual([
      "add_to_cart",
      "get_cart",
      "go_to",
      "get_time",
      "delegate_to_orders",
    ]);
    const delegate = selected.at(-1);
    expect(delegate?.description.startsWith(orders.description)).toBe(true);
    expect(delegate?.description.endsWith("Its tools: go_to, list_orders, track_order.")).toBe(true);
    expect(delegate?.inputSchema).toMatchObject({ required: ["task"] });
  });

  it("selects the orders agent's tools with no delegates", () => {
    const page = ["track_order", "get_cart", "go_to", "list_orders"].map(descriptor);
    expect(selectTools(orders, page).map((tool) => tool.name)).toEqual(["track_order", "go_to", "list_orders"]);
  });

  it("flattens [shopper] into both agents", () => {
    const byId = flattenWebAgents(agents);
    expect([...byId.keys()]).toEqual(["shopper", "orders"]);
    expect(byId.get("shopper")).toBe(shopper);
    expect(byId.get("orders")).toBe(orders);
  });

  it("stays plain data: JSON carries every field but invoke", () => {
    expect(JSON.parse(JSON.stringify(orders))).toEqual({
      id: "orders",
      description: orders.description,
      instructions: [...orders.instructions],
      tools: ["go_to", "list_orders", "track_order"],
      agents: [],
      model: "anthropic/claude-sonnet-5-5",
    });
  });
});
