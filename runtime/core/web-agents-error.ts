const MARKER = Symbol.for("webmcp-agents.error");

/** What crosses a worker or HTTP boundary for an error: a code, a message, and typed fields. */
export interface SerializedError {
  code: string;
  message: string;
  [field: string]: unknown;
}

/**
 * The base of every error this package throws on purpose. `code` is stable
 * and machine-readable; `message` says what to do next. Checked with
 * {@link WebAgentsError.isInstance}, not `instanceof`: in development the
 * module can load twice (source and `dist`), and errors cross workers as data.
 */
export class WebAgentsError extends Error {
  readonly [MARKER] = true;
  readonly code: string;

  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "WebAgentsError";
    this.code = code;
  }

  static isInstance(value: unknown): value is WebAgentsError {
    return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[MARKER] === true;
  }

  /** The error as plain data, for `postMessage` or a JSON body. */
  toJSON(): SerializedError {
    return { code: this.code, message: this.message };
  }
}
