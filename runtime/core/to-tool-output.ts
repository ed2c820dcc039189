import type { ToolContent, ToolOutput } from "./tool-output.js";

/**
 * Turns whatever a tool returned into a {@link ToolOutput}:
 *
 * - an MCP result (`{ content: [...] }`) is kept, with `isError` and an
 *   object `structuredContent`;
 * - a string holding a JSON object, array or string (how `executeTool`
 *   returns results) is parsed, then normalized;
 * - `undefined` or `""` becomes the text `Done.`;
 * - any other string becomes one text block;
 * - any other value becomes its JSON as text, plus `structuredContent` when it
 *   is a plain object.
 */
export function toToolOutput(value: unknown): ToolOutput {
  if (value === undefined || value === "") return { content: [{ type: "text", text: "Done." }] };
  if (typeof value === "string") {
    const parsed = parseJson(value);
    return parsed === undefined ? { content: [{ type: "text", text: value }] } : toToolOutput(parsed);
  }
  if (isPlainObject(value) && Array.isArray(value.content)) {
    const output: ToolOutput = { content: value.content as ToolContent[] };
    if (value.isError !== undefined) output.isError = value.isError === true;
    if (isPlainObject(value.structuredContent)) output.structuredContent = value.structuredContent;
    return output;
  }
  const output: ToolOutput = { content: [{ type: "text", text: stringify(value) }] };
  if (isPlainObject(value)) output.structuredContent = value;
  return output;
}

// Only objects, arrays and quoted strings: a result of "42" or "true" stays the text it was.
function parseJson(text: string): unknown {
  const first = text.trimStart()[0];
  if (first !== "{" && first !== "[" && first !== '"') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function stringify(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
