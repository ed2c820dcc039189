/**
 * The bench's two-step tool loop: a shop's tools (about 1,000 tokens of
 * schemas in the prompt, as a real page's are), a user message, then the
 * same conversation after one call and its result. Step 2's prompt extends
 * step 1's, so the engine can start it from step 1's cache.
 */
import type { AgentMessage, ToolDescriptor } from "@webmcp-agents/chat/runtime";

const sku = { type: "string", description: "The product's SKU, as search_products returns it (for example socks-blue-m)." };
const quantity = { type: "integer", minimum: 1, maximum: 20, description: "How many; 1 when the person does not say." };

/** Tools of a small shop, with the descriptions a site would give. */
export const BENCH_TOOLS: ToolDescriptor[] = [
  {
    name: "search_products",
    description: "Searches the catalog by words, category and price. Returns up to 10 products with SKU, name, price, colors, sizes and stock.",
    inputSchema: {
      type: "object",
      properties: {
        query: { type: "string", description: "Words to search for, such as 'wool socks' or 'red hat'." },
        category: { type: "string", enum: ["socks", "hats", "scarves", "gloves", "shoes", "bags"], description: "Only this category." },
        maxPrice: { type: "number", description: "Only products at or under this price, in euros." },
        inStock: { type: "boolean", description: "Only products in stock (default true)." },
      },
      required: ["query"],
    },
  },
  {
    name: "get_product",
    description: "Returns one product's details: description, materials, care, price, every color and size with its stock, and reviews' average.",
    inputSchema: { type: "object", properties: { sku }, required: ["sku"] },
  },
  {
    name: "add_to_cart",
    description: "Adds a product to the cart. Returns the cart's lines and total. Ask which size or color when the product has several and the person did not say.",
    inputSchema: {
      type: "object",
      properties: { sku, quantity, size: { type: "string", enum: ["XS", "S", "M", "L", "XL"] }, color: { type: "string", description: "One of the product's colors." } },
      required: ["sku"],
    },
  },
  {
    name: "remove_from_cart",
    description: "Removes a line from the cart, or lowers its quantity. Returns the cart's lines and total.",
    inputSchema: { type: "object", properties: { sku, quantity: { ...quantity, description: "How many to remove; all when absent." } }, required: ["sku"] },
  },
  {
    name: "get_cart",
    description: "Returns the cart: its lines (SKU, name, size, color, quantity, price), the subtotal, shipping and the total.",
    inputSchema: { type: "object", properties: {} },
  },
  {
    name: "apply_coupon",
    description: "Applies a coupon code to the cart. Returns the discount, or why the code does not apply (expired, minimum not reached, unknown).",
    inputSchema: { type: "object", properties: { code: { type: "string", description: "The code as the person typed it." } }, required: ["code"] },
  },
  {
    name: "get_order_status",
    description: "Returns an order's status (received, packed, shipped, delivered, returned), its carrier and tracking link, and the expected delivery date.",
    inputSchema: {
      type: "object",
      properties: { orderId: { type: "string", description: "The order number, such as FS-10293." }, email: { type: "string", description: "The order's email address, to confirm it." } },
      required: ["orderId"],
    },
  },
  {
    name: "navigate",
    description: "Opens a page of the site: the home page, a category, a product, the cart, checkout, the person's orders, or the help pages.",
    inputSchema: {
      type: "object",
      properties: {
        page: { type: "string", enum: ["home", "category", "product", "cart", "checkout", "orders", "help"] },
        target: { type: "string", description: "The category name or product SKU, for those pages." },
      },
      required: ["page"],
    },
  },
];

/** The two steps of a loop whose conversation starts with message `id`, and the next user turn after its answer. */
export function toolLoopMessages(id: string, userText: string): { step1: AgentMessage[]; step2: AgentMessage[]; turn2: AgentMessage[] } {
  const user: AgentMessage = { id, role: "user", parts: [{ type: "text", text: userText }] };
  const reply: AgentMessage = {
    id: `${id}-reply`,
    role: "assistant",
    parts: [
      {
        type: "tool",
        id: `${id}-call`,
        name: "add_to_cart",
        input: { sku: "socks-blue-m", quantity: 2 },
        state: "done",
        output: { content: [{ type: "text", text: '{"lines":[{"sku":"socks-blue-m","name":"Blue wool socks","size":"M","quantity":2,"price":9.5}],"total":19}' }] },
      },
    ],
  };
  const answered: AgentMessage = { ...reply, parts: [...reply.parts, { type: "text", text: "I added two pairs of blue wool socks, size M, to your cart: 19.00 in all." }] };
  const next: AgentMessage = { id: `${id}-next`, role: "user", parts: [{ type: "text", text: "Thanks. Add a red hat too, and tell me the new total." }] };
  return { step1: [user], step2: [user, reply], turn2: [user, answered, next] };
}
