/** A tool call as Qwen3 writes it: a tool name and a JSON object of arguments. */
export interface QwenToolCall {
  name: string;
  arguments: Record<string, unknown>;
}

/** JSON with Python's `json.dumps` spacing (`", "` and `": "`), as Qwen3 writes it and its chat template renders it. */
export function toPythonStyleJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(toPythonStyleJson).join(", ")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value).map(([key, entry]) => `${JSON.stringify(key)}: ${toPythonStyleJson(entry)}`);
    return `{${entries.join(", ")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/**
 * The text Qwen3 emits for one tool call:
 * `<tool_call>\n{"name": "add_to_cart", "arguments": {"sku": "socks"}}\n</tool_call>`.
 */
export function formatToolCall(call: QwenToolCall): string {
  return `<tool_call>\n${toPythonStyleJson({ name: call.name, arguments: call.arguments })}\n</tool_call>`;
}
