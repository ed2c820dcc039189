import { isEngineErrorCode } from "../runtime/errors/error-codes.js";
import { WebAgentsError, type SerializedError } from "../runtime/errors/web-agents-error.js";
import type { EngineErrorCode, EngineErrorData, EngineErrorReason } from "./protocol.js";

const MARKER = Symbol.for("webmcp-agents.engine-error");

/**
 * An engine failure with a stable `code` and the fields a caller needs to
 * recover (`neededBytes`/`freeBytes` for `quota_exceeded`, `file`/`status`/
 * `host` for a failed download, `reason` for which sentence the person reads,
 * `detail` for the engine's own words). Crosses the worker boundary as
 * {@link EngineErrorData} (`toData()`) and is rebuilt with `fromData()`.
 * A `WebAgentsError` like every error of this package.
 */
export class EngineError extends WebAgentsError<EngineErrorCode> {
  readonly [MARKER] = true;
  declare readonly neededBytes?: number;
  declare readonly freeBytes?: number;
  declare readonly file?: string;
  declare readonly status?: number;
  declare readonly reason?: EngineErrorReason;
  declare readonly host?: string;
  declare readonly detail?: string;

  constructor({ code, message, ...fields }: EngineErrorData, options?: { cause?: unknown }) {
    super(code, message, options);
    this.name = "EngineError";
    // Only the fields given: the base's toJSON() sends exactly these back (toData).
    for (const [key, value] of Object.entries(fields)) if (value !== undefined) Object.defineProperty(this, key, { value, enumerable: true });
  }

  /** True for an `EngineError` from any copy of this module (a marker, not `instanceof`). */
  static override isInstance(value: unknown): value is EngineError {
    return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[MARKER] === true;
  }

  /** Rebuilds the error on the receiving side of the boundary. */
  static override fromData(data: EngineErrorData | SerializedError): EngineError {
    // A code this version does not know (an older or newer worker) reads as a failed generation.
    return new EngineError({ ...(data as EngineErrorData), code: isEngineErrorCode(data.code) ? data.code : "generation_failed" });
  }

  /** The plain, structured-cloneable form: `{ code, message, ...fields }` (the base's `toJSON`). */
  toData(): EngineErrorData {
    return this.toJSON() as EngineErrorData;
  }
}

/** Whether a value has the shape of {@link EngineErrorData} (as it arrives over comlink). */
export function isEngineErrorData(value: unknown): value is EngineErrorData {
  return WebAgentsError.isData(value) && isEngineErrorCode(value.code);
}

/**
 * Any thrown value as an `EngineError`: an `EngineError` stays as it is, an
 * abort becomes `aborted`, anything else becomes `fallback` with the
 * original message (never `String(error)` of an object).
 */
export function toEngineError(error: unknown, fallback: EngineErrorCode): EngineError {
  if (EngineError.isInstance(error)) return error;
  if (isEngineErrorData(error)) return EngineError.fromData(error);
  if (error instanceof Error && error.name === "AbortError") {
    return new EngineError({ code: "aborted", message: "Stopped before it finished." }, { cause: error });
  }
  const message = error instanceof Error ? error.message : typeof error === "string" ? error : "Unknown engine failure.";
  return new EngineError({ code: fallback, message }, { cause: error });
}
