// The Field Store's catalog tools: defined once as plain data with
// defineWebTool, registered by <WebAgentsProvider> on every page, and listed
// by the agents (agents.ts), which the server imports too. Nothing here
// touches the browser until a tool runs.
// The source, not "@webmcp-agents/chat/core": the server imports this module through agents.ts.
import { defineWebTool, type WebToolContext } from "@webmcp-agents/chat/core";
import { findProduct, PRODUCTS } from "./catalog.js";
import { currentRoute, navigate, pageName, PAGE_NAMES, parsePage } from "./router.js";
import { cartTotal, describeLine, getCart, getOrders, orderStatus } from "./store-state.js";

/** Moves the cursor to `selector` when it is on the page; a missing control is no reason to fail. */
function pointIfThere(context: WebToolContext, selector: string, action: "point" | "click" = "point") {
  const element = document.querySelector(selector);
  if (element) context.pointAt(element, { action });
}

/** Lets React render the page a navigation opened (the session waits for its tools to settle after that). */
const nextFrame = () => new Promise<void>((resolve) => setTimeout(resolve, 30));

const getTime = defineWebTool({
  name: "get_time",
  description: "The current date and time on this device, with its time zone.",
  annotations: { readOnlyHint: true },
  execute: () => ({ now: new Date().toString(), timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone }),
});

const getPage = defineWebTool({
  name: "get_page",
  description: "Which Field Store page is open (home, a product, cart, orders), and the products it lists.",
  annotations: { readOnlyHint: true },
  execute: () => {
    const route = currentRoute();
    const product = route.page === "product" ? findProduct(route.productId) : undefined;
    return {
      page: pageName(route),
      title: document.title,
      ...(route.page === "home" && { products: PRODUCTS.map(({ id, name, price }) => ({ id, name, price })) }),
      ...(product && { product: { id: product.id, name: product.name, price: product.price, blurb: product.blurb } }),
    };
  },
});

const goTo = defineWebTool<{ page: string }>({
  name: "go_to",
  description:
    `Open a Field Store page: "home" (the products), "product/<id>" (one product, where add_to_cart is), ` +
    `"cart" (where place_order is) or "orders" (where list_orders and track_order are). ` +
    `Product ids: ${PRODUCTS.map((product) => product.id).join(", ")}.`,
  inputSchema: {
    type: "object",
    properties: { page: { type: "string", description: `One of ${PAGE_NAMES.join(", ")}.` } },
    required: ["page"],
    additionalProperties: false,
  },
  async execute({ page }, context) {
    const route = parsePage(page);
    if (!route) throw new Error(`There is no page "${page}". Use one of ${PAGE_NAMES.join(", ")}.`);
    if (route.page === "product" && !findProduct(route.productId)) {
      throw new Error(`There is no product "${route.productId}". Products: ${PRODUCTS.map((product) => product.id).join(", ")}.`);
    }
    pointIfThere(context, route.page === "product" ? `[data-product-link="${route.productId}"]` : `[data-nav="${route.page}"]`, "click");
    navigate(route);
    await nextFrame();
    return `Opened ${pageName(route)}.`;
  },
});

const getCartTool = defineWebTool({
  name: "get_cart",
  description: "What is in the cart: each product's id, name, quantity and price in cents, and the total.",
  annotations: { readOnlyHint: true },
  execute: (_input, context) => {
    pointIfThere(context, "#cart-badge");
    const lines = getCart().map(describeLine);
    return { lines, total: cartTotal(), empty: lines.length === 0 };
  },
});

const listOrders = defineWebTool({
  name: "list_orders",
  description: "The person's past orders, newest first: id, what was bought, total in cents and when it was placed.",
  annotations: { readOnlyHint: true },
  execute: (_input, context) => {
    pointIfThere(context, "#orders-list");
    return { orders: getOrders().map((order) => ({ id: order.id, lines: order.lines.map(describeLine), total: order.total, placedAt: order.placedAt })) };
  },
});

const trackOrder = defineWebTool<{ orderId: string }>({
  name: "track_order",
  description: "Where one order is now (processing, shipped or delivered) and when it arrives.",
  inputSchema: {
    type: "object",
    properties: { orderId: { type: "string", description: 'The order id, like "FS-1001".' } },
    required: ["orderId"],
    additionalProperties: false,
  },
  annotations: { readOnlyHint: true },
  execute: ({ orderId }, context) => {
    const order = getOrders().find((candidate) => candidate.id === orderId);
    if (!order) throw new Error(`There is no order "${orderId}". Call list_orders for the ids.`);
    pointIfThere(context, `[data-order="${order.id}"]`);
    return { orderId: order.id, ...orderStatus(order) };
  },
});

/** The store's catalog tools by role, as the agents list them. */
export const tools = { getTime, getPage, goTo, getCart: getCartTool, listOrders, trackOrder };

/** The tools every page registers (list_orders and track_order come with the orders page). */
export const catalogTools = [getTime, getPage, goTo, getCartTool];
