/**
 * What a Qwen-format completion contains, in order, as it streams:
 * reasoning, text, and tool calls (read by each format's parser).
 */
export type ModelOutputEvent =
  | { type: "text"; delta: string }
  | { type: "reasoning"; text: string }
  | { type: "tool-call"; name: string; input: Record<string, unknown> }
  /** A `<tool_call>` whose body the format cannot read, or one the reply cut off: never run. */
  | { type: "tool-call-invalid"; name: string; text: string; error: string };
