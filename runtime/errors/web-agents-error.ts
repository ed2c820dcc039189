import type { WebAgentsErrorCode } from "./error-codes.js";

const MARKER = Symbol.for("webmcp-agents.error");

/** An error as data, as it crosses a worker or HTTP boundary: a code, a message, and typed fields. */
export interface SerializedError {
  code: string;
  message: string;
  [field: string]: unknown;
}

/**
 * The base of every error this package throws on purpose, on every layer:
 * the page layer, the session, the engine worker (`EngineError`), the server
 * (`ChatHttpError`, `MissingApiKeyError`). `code` is stable and
 * machine-readable (the lists are in `error-codes.ts`); `message` is a
 * sentence that says what to do next. Its own fields travel with it:
 * `toJSON()` gives `{ code, message, ...fields }` and `fromData()` rebuilds
 * it on the other side of the boundary.
 *
 * Check with {@link WebAgentsError.isInstance}, not `instanceof`: in
 * development the module can load twice (source and `dist`), and errors
 * cross workers as data.
 */
export class WebAgentsError<Code extends string = WebAgentsErrorCode | (string & {})> extends Error {
  readonly [MARKER] = true;
  readonly code: Code;

  constructor(code: Code, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "WebAgentsError";
    this.code = code;
  }

  /** True for an error of this package, from any copy of this module. */
  static isInstance(value: unknown): value is WebAgentsError {
    return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[MARKER] === true;
  }

  /** Whether a value has the shape of {@link SerializedError} (as it arrives over postMessage or HTTP). */
  static isData(value: unknown): value is SerializedError {
    if (typeof value !== "object" || value === null) return false;
    const record = value as Record<string, unknown>;
    return typeof record.code === "string" && typeof record.message === "string";
  }

  /** Rebuilds an error sent as data: its code, message and fields. */
  static fromData(data: SerializedError): WebAgentsError {
    const { code, message, ...fields } = data;
    return Object.assign(new WebAgentsError(code, message), fields);
  }

  /** The error as plain data, for `postMessage` or a JSON body: `{ code, message, ...fields }` (not `cause`, not the stack). */
  toJSON(): SerializedError {
    const data: SerializedError = { code: this.code, message: this.message };
    for (const [key, value] of Object.entries(this)) {
      if (key !== "code" && key !== "message" && key !== "name" && key !== "cause" && value !== undefined && typeof value !== "function") data[key] = value;
    }
    return data;
  }
}
