// The plain-HTML Field Store's script: no bundler, no React. It registers the
// store's WebMCP tools and gives <web-agents-chat> its adapters; importing the
// element's entry defines <web-agents-chat>.
import { createCloudAdapter, createLocalAdapter, defineWebTool, registerWebTool } from "@webmcp-agents/chat/element";

const PRODUCTS = { "trail-socks": { name: "Trail socks", price: 1400 }, "camp-mug": { name: "Camp mug", price: 1200 } };
const cart = new Map();

function route() {
  const path = location.hash.replace(/^#\/?/, "");
  if (path === "cart") return { page: "cart" };
  const product = /^product\/([\w-]+)$/.exec(path);
  return product && PRODUCTS[product[1]] ? { page: "product", id: product[1] } : { page: "home" };
}

function render() {
  const current = route();
  for (const id of ["home", "product", "cart"]) document.getElementById(id).hidden = current.page !== id;
  if (current.page === "product") document.getElementById("product-name").textContent = PRODUCTS[current.id].name;
  document.getElementById("cart-badge").textContent = String([...cart.values()].reduce((sum, count) => sum + count, 0));
  document.getElementById("cart-lines").replaceChildren(
    ...[...cart].map(([id, count]) => Object.assign(document.createElement("li"), { textContent: `${PRODUCTS[id].name} × ${count}` })),
  );
}

function addToCart(quantity) {
  const current = route();
  if (current.page !== "product") throw new Error("add_to_cart works on a product's page: go_to product/<id> first.");
  cart.set(current.id, (cart.get(current.id) ?? 0) + quantity);
  render();
  return `Added ${quantity} × ${PRODUCTS[current.id].name}.`;
}

function placeOrder() {
  if (cart.size === 0) throw new Error("The cart is empty.");
  const lines = [...cart].map(([id, count]) => `${PRODUCTS[id].name} × ${count}`);
  cart.clear();
  render();
  document.getElementById("order-status").textContent = `Ordered: ${lines.join(", ")}.`;
  return `Order placed: ${lines.join(", ")}.`;
}

const nextFrame = () => new Promise((resolve) => requestAnimationFrame(() => resolve()));

const tools = [
  defineWebTool({
    name: "get_page",
    description: "Which page is open (home, product/<id>, cart) and the products.",
    annotations: { readOnlyHint: true },
    execute: () => ({ page: route(), products: PRODUCTS }),
  }),
  defineWebTool({
    name: "go_to",
    description: 'Open a page: "home", "product/<id>" (trail-socks, camp-mug) or "cart".',
    inputSchema: { type: "object", properties: { page: { type: "string" } }, required: ["page"], additionalProperties: false },
    async execute({ page }, context) {
      const link = document.querySelector(page.startsWith("product/") ? `[data-product-link="${page.slice(8)}"]` : `[data-nav="${page}"]`);
      if (link) context.pointAt(link, { action: "click" });
      location.hash = `#/${page === "home" ? "" : page}`;
      await nextFrame();
      return `Opened ${page}.`;
    },
  }),
  defineWebTool({
    name: "add_to_cart",
    description: "Add the open product to the cart.",
    inputSchema: { type: "object", properties: { quantity: { type: "integer", minimum: 1 } }, additionalProperties: false },
    annotations: { consequentialHint: true },
    execute({ quantity = 1 }, context) {
      context.pointAt(document.getElementById("add-to-cart"), { action: "click" });
      return addToCart(quantity);
    },
  }),
  defineWebTool({
    name: "place_order",
    description: "Order what is in the cart.",
    annotations: { consequentialHint: true },
    execute(_input, context) {
      context.pointAt(document.getElementById("place-order"), { action: "click" });
      return placeOrder();
    },
  }),
];

await Promise.all(tools.map((tool) => registerWebTool(tool)));
document.getElementById("add-to-cart").addEventListener("click", () => addToCart(1));
document.getElementById("place-order").addEventListener("click", () => placeOrder());
window.addEventListener("hashchange", render);
render();

// The on-device models this site offers (models.json beside the page), then its /api/chat.
// A site with no models.json (a build that did not copy it) offers the cloud alone.
const models = await fetch(new URL("models.json", document.baseURI))
  .then((response) => (response.ok && response.headers.get("content-type")?.includes("json") ? response.json() : []))
  .catch(() => []);
const chat = document.querySelector("web-agents-chat");
chat.adapters = [...(models.length > 0 ? [createLocalAdapter({ catalog: { models, autoLoad: false } })] : []), createCloudAdapter()];
document.body.dataset.ready = "true";
