import { isRunErrorCode, RUN_ERROR_CODES } from "../errors/error-codes.js";
import type { AgentStreamPart } from "./agent-stream-part.js";

const FINISH_REASONS = ["stop", "max-steps", "aborted"];

type Fields = Record<string, "string" | "any" | "object" | "number">;

const SHAPES: Record<AgentStreamPart["type"], Fields> = {
  "message-start": { messageId: "string" },
  "text-delta": { messageId: "string", delta: "string" },
  reasoning: { messageId: "string", text: "string" },
  "tool-call": { messageId: "string", id: "string", name: "string", input: "any" },
  "tool-result": { id: "string", output: "object" },
  "tool-error": { id: "string", error: "string" },
  "step-finish": { step: "number" },
  finish: { reason: "string" },
  error: { error: "string" },
};

/**
 * Checks one part an adapter yielded against the documented shapes. Returns
 * the part, or throws a `TypeError` that says which member is wrong; the
 * session turns that into an error part and ends the run, so a broken adapter
 * never half-applies a message.
 */
export function parseStreamPart(value: unknown): AgentStreamPart {
  if (typeof value !== "object" || value === null) throw new TypeError("a stream part must be an object with a type.");
  const part = value as Record<string, unknown>;
  const shape = SHAPES[part.type as AgentStreamPart["type"]];
  if (!shape) throw new TypeError(`unknown stream part type ${JSON.stringify(part.type)}.`);
  for (const [field, kind] of Object.entries(shape)) {
    const member = part[field];
    const ok =
      kind === "any"
        ? field in part
        : kind === "object"
          ? typeof member === "object" && member !== null && Array.isArray((member as { content?: unknown }).content)
          : typeof member === kind;
    if (!ok) throw new TypeError(`a "${String(part.type)}" part needs ${field} (${kind === "object" ? "a tool result" : kind}).`);
  }
  if (part.type === "finish" && !FINISH_REASONS.includes(part.reason as string)) {
    throw new TypeError(`finish.reason must be one of ${FINISH_REASONS.join(", ")}.`);
  }
  if (part.type === "error" && part.code !== undefined && !isRunErrorCode(part.code)) {
    throw new TypeError(`error.code must be one of ${RUN_ERROR_CODES.join(", ")}.`);
  }
  if (part.type === "step-finish" && part.usage !== undefined) {
    const usage = part.usage as Record<string, unknown> | null;
    if (typeof usage !== "object" || usage === null || typeof usage.promptTokens !== "number" || typeof usage.outputTokens !== "number") {
      throw new TypeError('a "step-finish" part\'s usage needs promptTokens and outputTokens (numbers).');
    }
  }
  if (part.type === "tool-error" && part.code !== undefined && typeof part.code !== "string") {
    throw new TypeError('a "tool-error" part\'s code must be a string when given.');
  }
  return part as AgentStreamPart;
}
