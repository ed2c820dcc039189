import type { StepPart } from "../runtime/session/step-part.js";

/**
 * What a Qwen-format completion contains, in order, as it streams:
 * reasoning, text, and tool calls (read by each format's parser). They are
 * the session's own step parts (runtime/session/step-part.ts): a
 * `tool-call-invalid` is a `<tool_call>` whose body the format cannot read,
 * or one the reply cut off (`inputText`: what the model wrote): it never runs.
 */
export type ModelOutputEvent =
  | Extract<StepPart, { type: "text-delta" | "reasoning" }>
  | { type: "tool-call"; name: string; input: Record<string, unknown> }
  | Omit<Extract<StepPart, { type: "tool-call-invalid" }>, "id">;
