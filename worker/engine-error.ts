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
  readonly neededBytes?: number;
  readonly freeBytes?: number;
  readonly file?: string;
  readonly status?: number;
  readonly reason?: EngineErrorReason;
  readonly host?: string;
  readonly detail?: string;

  constructor(data: EngineErrorData, options?: { cause?: unknown }) {
    super(data.code, data.message, options);
    this.name = "EngineError";
    if (data.neededBytes !== undefined) this.neededBytes = data.neededBytes;
    if (data.freeBytes !== undefined) this.freeBytes = data.freeBytes;
    if (data.file !== undefined) this.file = data.file;
    if (data.status !== undefined) this.status = data.status;
    if (data.reason !== undefined) this.reason = data.reason;
    if (data.host !== undefined) this.host = data.host;
    if (data.detail !== undefined) this.detail = data.detail;
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

  /** The plain, structured-cloneable form: `{ code, message, ...fields }`. */
  toData(): EngineErrorData {
    const data: EngineErrorData = { code: this.code, message: this.message };
    if (this.neededBytes !== undefined) data.neededBytes = this.neededBytes;
    if (this.freeBytes !== undefined) data.freeBytes = this.freeBytes;
    if (this.file !== undefined) data.file = this.file;
    if (this.status !== undefined) data.status = this.status;
    if (this.reason !== undefined) data.reason = this.reason;
    if (this.host !== undefined) data.host = this.host;
    if (this.detail !== undefined) data.detail = this.detail;
    return data;
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
