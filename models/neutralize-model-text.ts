/**
 * Text from outside the model's own turns (a tool's result, a page tool's
 * description or schema) made unable to fake a turn or a call: every
 * `<|…` (the chat template's control tokens: `<|im_start|>`, `<|im_end|>`,
 * `<|endoftext|>`, …) and every opener or closer of the Qwen formats' tags
 * (`<tool_call>`, `</tool_call>`, `<tool_response>`, `<think>`, `<tools>`,
 * `<function=`, `<parameter=`, …) gets a zero-width joiner after its `<`.
 *
 * transformers.js's tokenizer turns those strings into their special tokens
 * wherever they appear, content included, so an unchanged tool result could
 * close its own `<tool_response>` and open an assistant turn with a call.
 * Broken this way they are ordinary text to the tokenizer and to both output
 * parsers; a person reading them sees the same characters.
 *
 * Pure and idempotent (a neutralised tag no longer matches), so a prompt's
 * prefix stays byte-identical from one step to the next.
 */
export const NEUTRALIZER = "\u200d";

// `<|` anything, or `<` / `</` before one of the formats' tag names (any case,
// since the scripted and real parsers differ in what they forgive).
const OPENERS = /<(?=\||\/?\s*(?:tool_call|tool_response|tools|think|function|parameter)\b)/gi;

/** `text` with every special-token and tool-tag opener broken by {@link NEUTRALIZER}. */
export function neutralizeModelText(text: string): string {
  return text.replace(OPENERS, `<${NEUTRALIZER}`);
}

/** Every string inside `value` (keys too) neutralized; other values as they are. For tool schemas. */
export function neutralizeDeep<T>(value: T): T {
  if (typeof value === "string") return neutralizeModelText(value) as T;
  if (Array.isArray(value)) return value.map((item) => neutralizeDeep(item)) as T;
  if (typeof value === "object" && value !== null) {
    const result: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
    for (const [key, item] of Object.entries(value)) result[neutralizeModelText(key)] = neutralizeDeep(item);
    return Object.setPrototypeOf(result, Object.prototype) as T;
  }
  return value;
}

/** A template message with its content neutralized when it is a tool's result (`role: "tool"`); any other as it is. */
export function neutralizeToolMessage<M extends { role: string; content: string }>(message: M): M {
  if (message.role !== "tool") return message;
  const content = neutralizeModelText(message.content);
  return content === message.content ? message : { ...message, content };
}

/** A page tool as the model reads it, with its description and every string of its schema neutralized; the name as it is (a call must repeat it). */
export function neutralizeToolDescriptor<T extends { name: string; description: string; inputSchema: Record<string, unknown> }>(tool: T): T {
  const description = neutralizeModelText(tool.description);
  const inputSchema = neutralizeDeep(tool.inputSchema);
  if (description === tool.description && JSON.stringify(inputSchema) === JSON.stringify(tool.inputSchema)) return tool;
  return { ...tool, description, inputSchema };
}
