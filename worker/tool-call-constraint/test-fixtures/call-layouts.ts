import type { ToolDescriptor } from "../../../runtime/session/tool-descriptor.js";

/** The tools the layouts call. */
export const LAYOUT_TOOLS: ToolDescriptor[] = [
  {
    name: "add_to_cart",
    description: "Adds a product to the cart.",
    inputSchema: { type: "object", properties: { sku: { type: "string", maxLength: 40 }, quantity: { type: "integer", minimum: 1, maximum: 120 } }, required: ["sku"] },
  },
  { name: "go_to", description: "Opens a page.", inputSchema: { type: "object", properties: { page: { type: "string", enum: ["cart", "home"] } }, required: ["page"] } },
  {
    name: "calculate_area",
    description: "Calculates an area.",
    inputSchema: { type: "object", properties: { shape: { type: "string" }, dimensions: { type: "object" }, precision: { type: "integer" } } },
  },
];

/**
 * Valid Hermes (Qwen3) calls in the layouts real models write, after the
 * shapes of vLLM's Hermes parser tests: no newline after the opener, text
 * right before it, JSON broken over lines, compact JSON, the arguments first,
 * two calls back to back, `<` in a string.
 */
export const HERMES_LAYOUTS: string[] = [
  '<tool_call>\n{"name": "add_to_cart", "arguments": {"sku": "socks", "quantity": 2}}\n</tool_call>',
  '<tool_call>{"name": "add_to_cart", "arguments": {"sku": "socks", "quantity": 2}}</tool_call>',
  'Sure, let me add them.<tool_call>{"name": "go_to", "arguments": {"page": "cart"}}</tool_call>',
  '<tool_call>\n{\n  "name": "add_to_cart",\n  "arguments": {\n    "sku": "socks",\n    "quantity": 12\n  }\n}\n</tool_call>',
  '<tool_call>{"name":"add_to_cart","arguments":{"sku":"hat","quantity":120}}</tool_call>',
  '<tool_call>\n{"arguments": {"page": "home"}, "name": "go_to"}\n</tool_call>',
  '<tool_call>{"name": "go_to", "arguments": {"page": "cart"}}</tool_call><tool_call>{"name": "add_to_cart", "arguments": {"sku": "a < b"}}</tool_call>',
  '<tool_call>{"name": "add_to_cart",\n"arguments": {"sku":\n"<b>bold</b> & 1 <2", "quantity": 3}}</tool_call>',
];

/**
 * Valid Qwen3.5 calls in the layouts vLLM's `qwen3_coder` tests give: no
 * newlines around a value, text right before the call, a JSON value broken
 * over lines, two calls, blank lines between tags, no `</function>`, `<` in
 * a value (a comparison, HTML).
 */
export const XML_LAYOUTS: string[] = [
  "<tool_call>\n<function=add_to_cart>\n<parameter=sku>\nsocks\n</parameter>\n<parameter=quantity>\n2\n</parameter>\n</function>\n</tool_call>",
  "<tool_call>\n<function=add_to_cart>\n<parameter=sku>socks</parameter>\n<parameter=quantity>2</parameter>\n</function>\n</tool_call>",
  "Sure! Let me open it.<tool_call>\n<function=go_to>\n<parameter=page>\ncart\n</parameter>\n</function>\n</tool_call>",
  '<tool_call>\n<function=calculate_area>\n<parameter=shape>\nrectangle\n</parameter>\n<parameter=dimensions>\n{"width": 10, \n "height": 20}\n</parameter>\n<parameter=precision>\n2\n</parameter>\n</function>\n</tool_call>',
  "<tool_call>\n<function=go_to>\n<parameter=page>\nhome\n</parameter>\n</function>\n</tool_call>\n<tool_call>\n<function=add_to_cart>\n<parameter=sku>\nhat\n</parameter>\n</function>\n</tool_call>",
  "<tool_call>\n\n<function=add_to_cart>\n\n<parameter=sku>\nsocks\n</parameter>\n\n</function>\n\n</tool_call>",
  "<tool_call>\n<function=go_to>\n<parameter=page>\ncart\n</parameter>\n</tool_call>",
  "<tool_call>\n<function=add_to_cart>\n<parameter=sku>\na < b and <b>x</b>\n</parameter>\n</function>\n</tool_call>",
];
