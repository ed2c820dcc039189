// The Field Store's tools as doubles for its evaluations (store-scenarios.ts):
// the same names, descriptions, schemas and annotations the model sees in the
// store (tools.ts, pages/product-page.tsx, pages/cart-page.tsx), over a cart
// in memory, so a run changes nothing a person has and each run starts empty.
import { defineWebTool, type WebTool } from "@webmcp-agents/chat/core";
import { findProduct, PRODUCTS } from "./catalog.js";
import { pageName, PAGE_NAMES, parsePage, type Route } from "./router.js";
import { tools } from "./tools.js";

/** What the doubles did: where the run ended up, the cart, and the orders placed. */
export interface StoreDoubleState {
  route: Route;
  cart: { productId: string; quantity: number }[];
  orders: { id: string; lines: { productId: string; quantity: number }[] }[];
}

/** Fresh doubles over their own state; `state` is what they changed. */
export function storeToolDoubles(): { tools: WebTool[]; state: StoreDoubleState } {
  const state: StoreDoubleState = { route: { page: "home" }, cart: [], orders: [] };
  const lines = () => state.cart.map((line) => ({ ...line, name: findProduct(line.productId)?.name, price: findProduct(line.productId)?.price }));
  const doubles: WebTool[] = [
    defineWebTool({ name: tools.getTime.name, description: tools.getTime.description, annotations: { readOnlyHint: true }, execute: () => ({ now: "Tue Dec 01 2026 10:00:00 GMT+0000", timeZone: "UTC" }) }),
    defineWebTool({
      name: tools.getPage.name,
      description: tools.getPage.description,
      annotations: { readOnlyHint: true },
      execute: () => ({ page: pageName(state.route), ...(state.route.page === "home" && { products: PRODUCTS.map(({ id, name, price }) => ({ id, name, price })) }) }),
    }),
    defineWebTool<{ page: string }>({
      name: tools.goTo.name,
      description: tools.goTo.description,
      ...(tools.goTo.inputSchema && { inputSchema: tools.goTo.inputSchema }),
      execute: ({ page }) => {
        const route = parsePage(page);
        if (!route) throw new Error(`There is no page "${page}". Use one of ${PAGE_NAMES.join(", ")}.`);
        if (route.page === "product" && !findProduct(route.productId)) throw new Error(`There is no product "${route.productId}".`);
        state.route = route;
        return `Opened ${pageName(route)}.`;
      },
    }),
    defineWebTool({ name: tools.getCart.name, description: tools.getCart.description, annotations: { readOnlyHint: true }, execute: () => ({ lines: lines(), empty: state.cart.length === 0 }) }),
    defineWebTool<{ quantity?: number }>({
      name: "add_to_cart",
      description: "Add the product on this page to the cart.",
      inputSchema: { type: "object", properties: { quantity: { type: "integer", minimum: 1, maximum: 20, description: "How many. Default 1." } }, additionalProperties: false },
      execute: ({ quantity = 1 }) => {
        // In the store this tool exists on a product's page only.
        if (state.route.page !== "product") throw new Error("add_to_cart is on a product's page only: go_to product/<id> first.");
        const { productId } = state.route;
        const line = state.cart.find((entry) => entry.productId === productId);
        if (line) line.quantity += quantity;
        else state.cart.push({ productId, quantity });
        return `Added ${quantity} × ${findProduct(productId)!.name}.`;
      },
    }),
    defineWebTool({
      name: "place_order",
      description: "Place the order for everything in the cart. The person confirms with the Place order button.",
      annotations: { consequentialHint: true },
      execute: () => {
        if (state.route.page !== "cart") throw new Error("place_order is on the cart page only: go_to cart first.");
        if (state.cart.length === 0) throw new Error("The cart is empty: add something first.");
        const order = { id: `FS-${1001 + state.orders.length}`, lines: state.cart };
        state.orders.push(order);
        state.cart = [];
        return `Order ${order.id} placed.`;
      },
    }),
  ];
  return { tools: doubles, state };
}
