import { readToolErrorCode } from "../core/tool-error-output.js";
import type { AgentStreamPart } from "./agent-stream-part.js";

/** A `tool-error` stream part. */
export type ToolErrorPart = Extract<AgentStreamPart, { type: "tool-error" }>;

/**
 * A `tool-error` part whose `code` is data, read once from the error's
 * `Error [<code>]:` prefix (the text the model reads), so nothing downstream
 * matches on the text again.
 */
export function toolErrorPart(id: string, error: string): ToolErrorPart {
  const code = readToolErrorCode(error);
  return code === undefined ? { type: "tool-error", id, error } : { type: "tool-error", id, error, code };
}

/** The code of a `tool-error` part: its own, else read from its text (parts from adapters written before `code`). */
export function toolErrorCode(part: Pick<ToolErrorPart, "error" | "code">): string | undefined {
  return part.code ?? readToolErrorCode(part.error);
}
