import { toPythonStyleJson } from "../python-style-json.js";

export { toPythonStyleJson };

/** A tool call as Qwen3 writes it: a tool name and a JSON object of arguments. */
export interface QwenToolCall {
  name: string;
  arguments: Record<string, unknown>;
}

/**
 * The text Qwen3 emits for one tool call:
 * `<tool_call>\n{"name": "add_to_cart", "arguments": {"sku": "socks"}}\n</tool_call>`.
 */
export function formatToolCall(call: QwenToolCall): string {
  return `<tool_call>\n${toPythonStyleJson({ name: call.name, arguments: call.arguments })}\n</tool_call>`;
}
