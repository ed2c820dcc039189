// The multi-page Field Store's script, on every page: no bundler needed, no
// React, and every link a full page load, as most shops and CMS sites are.
// The cart and the orders live in localStorage; the chat's conversation, and
// a reply under way, go from page to page by themselves (the element's
// storage-key); the model stays loaded across pages in a SharedWorker
// (createLocalAdapter's worker.shared: the default, set here because
// `npm start` serves every page cross-origin isolated, where it is off).
import { createCloudAdapter, createLocalAdapter, defineWebTool, registerWebTool } from "@webmcp-agents/chat/element";

const PRODUCTS = { "trail-socks": { name: "Trail socks", price: 1400 }, "camp-mug": { name: "Camp mug", price: 1200 } };
const PAGE = document.body.dataset.page;
const productId = new URLSearchParams(location.search).get("id");

const read = (key, fallback) => {
  try {
    return JSON.parse(localStorage.getItem(key) ?? "null") ?? fallback;
  } catch {
    return fallback;
  }
};
const cart = new Map(Object.entries(read("multi-page:cart", {})));
const orders = read("multi-page:orders", []);
const save = () => {
  localStorage.setItem("multi-page:cart", JSON.stringify(Object.fromEntries(cart)));
  localStorage.setItem("multi-page:orders", JSON.stringify(orders));
};
const cartLines = () => [...cart].map(([id, count]) => `${PRODUCTS[id].name} × ${count}`);

function render() {
  document.getElementById("cart-badge").textContent = String([...cart.values()].reduce((sum, count) => sum + count, 0));
  if (PAGE === "product") document.getElementById("product-name").textContent = PRODUCTS[productId]?.name ?? "No such product";
  if (PAGE === "cart") document.getElementById("cart-lines").replaceChildren(...cartLines().map((line) => Object.assign(document.createElement("li"), { textContent: line })));
  if (PAGE === "orders") document.getElementById("order-lines").replaceChildren(...orders.map((order) => Object.assign(document.createElement("li"), { textContent: order })));
}

/** The page's own address for a `go_to` page name, or undefined for a name the store has not. */
function urlOf(page) {
  if (page === "home") return "./";
  if (page === "cart" || page === "orders") return `./${page}.html`;
  const product = /^product\/([\w-]+)$/.exec(page);
  return product && PRODUCTS[product[1]] ? `./product.html?id=${product[1]}` : undefined;
}

function addToCart(quantity) {
  if (PAGE !== "product" || !PRODUCTS[productId]) throw new Error("add_to_cart works on a product's page: go_to product/<id> first.");
  cart.set(productId, (cart.get(productId) ?? 0) + quantity);
  save();
  render();
  return `Added ${quantity} × ${PRODUCTS[productId].name}.`;
}

function placeOrder() {
  if (PAGE !== "cart") throw new Error("place_order works on the cart: go_to cart first.");
  if (cart.size === 0) throw new Error("The cart is empty.");
  const lines = cartLines();
  orders.push(lines.join(", "));
  cart.clear();
  save();
  render();
  document.getElementById("order-status").textContent = `Ordered: ${lines.join(", ")}.`;
  return `Order placed: ${lines.join(", ")}.`;
}

const tools = [
  defineWebTool({
    name: "get_page",
    description: "Which page is open (home, product/<id>, cart, orders), the products, the cart and the orders.",
    annotations: { readOnlyHint: true },
    execute: () => ({ page: PAGE === "product" ? `product/${productId}` : PAGE, products: PRODUCTS, cart: cartLines(), orders }),
  }),
  defineWebTool({
    name: "go_to",
    description: 'Open a page: "home", "product/<id>" (trail-socks, camp-mug), "cart" or "orders". The page loads anew; the reply goes on there.',
    inputSchema: { type: "object", properties: { page: { type: "string" } }, required: ["page"], additionalProperties: false },
    execute({ page }, context) {
      const url = urlOf(page);
      if (!url) throw new Error(`No page "${page}": use home, product/<id>, cart or orders.`);
      const link = document.querySelector(page.startsWith("product/") ? `[data-product-link="${page.slice(8)}"]` : `[data-nav="${page}"]`);
      if (link) context.pointAt(link, { action: "click" });
      // Once this call's result is in the conversation (the chat keeps it as the call returns),
      // so the next page goes on from it and never opens the page twice.
      setTimeout(() => location.assign(url), 50);
      return `Opening ${page}.`;
    },
  }),
  defineWebTool({
    name: "add_to_cart",
    description: "Add the open product to the cart.",
    inputSchema: { type: "object", properties: { quantity: { type: "integer", minimum: 1 } }, additionalProperties: false },
    annotations: { consequentialHint: true },
    execute({ quantity = 1 }, context) {
      const button = document.getElementById("add-to-cart");
      if (button) context.pointAt(button, { action: "click" });
      return addToCart(quantity);
    },
  }),
  defineWebTool({
    name: "place_order",
    description: "Order what is in the cart.",
    annotations: { consequentialHint: true },
    execute(_input, context) {
      const button = document.getElementById("place-order");
      if (button) context.pointAt(button, { action: "click" });
      return placeOrder();
    },
  }),
];

await Promise.all(tools.map((tool) => registerWebTool(tool)));
document.getElementById("add-to-cart")?.addEventListener("click", () => addToCart(1));
document.getElementById("place-order")?.addEventListener("click", () => placeOrder());
render();

// The on-device models the store offers (the plain-HTML store's list), then its /api/chat.
const models = await fetch(new URL("../plain-html/models.json", document.baseURI))
  .then((response) => (response.ok && response.headers.get("content-type")?.includes("json") ? response.json() : []))
  .catch(() => []);
const chat = document.querySelector("web-agents-chat");
chat.adapters = [...(models.length > 0 ? [createLocalAdapter({ catalog: { models }, worker: { shared: true } })] : []), createCloudAdapter()];
document.body.dataset.ready = "true";
