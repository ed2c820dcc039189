import type { KnownToolErrorCode } from "../errors/error-codes.js";
import type { ToolOutput } from "./tool-output.js";

/**
 * The code of a failed tool call: one of `TOOL_ERROR_CODES` (runtime/errors,
 * the one list), or a site's own, so any string is allowed.
 */
export type ToolErrorCode = KnownToolErrorCode | (string & {});

const ERROR_TEXT = /^Error \[([\w.-]+)\]:/;

/**
 * A failed tool call as a {@link ToolOutput}: `isError: true` and one text
 * block `Error [<code>]: <message>`. Write `message` for the model: what went
 * wrong and what to do next.
 */
export function toolErrorOutput(code: ToolErrorCode, message: string): ToolOutput {
  return { isError: true, content: [{ type: "text", text: `Error [${code}]: ${message}` }] };
}

/**
 * The code of a failed tool call: parsed from `Error [<code>]:` at the start
 * of the first text block of an `isError` output, or of an error string (a
 * `tool-error` part's `error`). `undefined` for a success or an error without
 * a code.
 */
export function readToolErrorCode(output: ToolOutput | string): string | undefined {
  if (typeof output === "string") return ERROR_TEXT.exec(output)?.[1];
  if (!output.isError) return undefined;
  const first = output.content[0];
  return first?.type === "text" ? ERROR_TEXT.exec(first.text)?.[1] : undefined;
}
