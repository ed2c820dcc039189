import { EngineError } from "../../../worker/engine-error.js";
import { engineErrorMessage } from "../../../worker/engine-error-messages.js";
import type { EngineErrorCode, EngineErrorData } from "../../../worker/protocol.js";
import { isRunErrorCode } from "../../errors/error-codes.js";
import type { AgentStreamPart } from "../../session/agent-stream-part.js";

/** The `code` of an error rebuilt from `EngineErrorData`, when it has one. */
export function engineErrorCode(error: unknown): EngineErrorCode | undefined {
  const code = typeof error === "object" && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === "string" ? (code as EngineErrorCode) : undefined;
}

const messageOf = (error: unknown) => (error instanceof Error || (typeof error === "object" && error !== null && "message" in error) ? String((error as { message: unknown }).message) : String(error));

/**
 * A failed engine call as one sentence for the person, saying what to do next
 * where there is something to do. With `model` (the label the person knows),
 * a download or load failure is told again in its words (the worker names the
 * model by its repo); the sentences themselves live in `engineErrorMessage`.
 */
export function describeEngineError(error: unknown, model?: string): string {
  const message = messageOf(error);
  const code = engineErrorCode(error);
  if (code !== undefined && model !== undefined) {
    const sentence = engineErrorMessage({ ...(error as Partial<EngineErrorData>), code }, model);
    if (sentence !== undefined) return sentence;
  }
  if (code !== undefined && typeof (error as Partial<EngineErrorData>).reason === "string") return message;
  switch (code) {
    case "worker_died":
      return `The on-device model stopped (the browser may have run out of memory): ${message} Send again to reload it.`;
    case "not_cached":
      return `The model is no longer on this device: ${message} Download it again.`;
    case "quota_exceeded":
    case "download_failed":
    case "integrity_failed":
    case "load_failed":
    case "unsupported_device":
      return message;
    default:
      return `The on-device model failed: ${message}`;
  }
}

/**
 * A failed engine call as a run's `error` part: {@link describeEngineError}'s
 * sentence, and the engine's code where the widget can act on it.
 */
export function engineErrorPart(error: unknown, model?: string): Extract<AgentStreamPart, { type: "error" }> {
  const code = engineErrorCode(error);
  const message = describeEngineError(error, model);
  return isRunErrorCode(code) ? { type: "error", error: message, code } : { type: "error", error: message };
}

/** The same engine error with `describeEngineError`'s sentence as its message, so what `prepare()` rejects with reads as the status does. */
export function withDescribedMessage(error: unknown, model: string): unknown {
  if (!EngineError.isInstance(error)) return error;
  const message = describeEngineError(error, model);
  return message === error.message ? error : new EngineError({ ...error.toData(), message }, { cause: error });
}
