import { WebAgentsError } from "../core/web-agents-error.js";
import type { ChatErrorBody } from "./chat-wire.js";

/** A stable code of an HTTP error the handler answers with; see {@link ChatErrorBody}. Declared in `CHAT_HTTP_ERROR_CODES`. */
export type { ChatHttpErrorCode } from "../errors/error-codes.js";
import type { ChatHttpErrorCode } from "../errors/error-codes.js";

/** What {@link ChatHttpError} takes besides status, code and message. */
export interface ChatHttpErrorOptions {
  /** Goes out as the body's `reason` (for example `"daily_budget"`). */
  reason?: string;
  /** Extra response headers (`Retry-After`, `Allow`). */
  headers?: Record<string, string>;
  /** Kept for the server's log; never sent. */
  cause?: unknown;
}

/**
 * A request the handler refuses, as data: the status, a stable `code`, a
 * message for people and, for some, a `reason`. It becomes a JSON
 * {@link ChatErrorBody} response; its `cause` never leaves the server.
 */
export class ChatHttpError extends WebAgentsError {
  readonly status: number;
  readonly reason: string | undefined;
  readonly headers: Record<string, string>;

  constructor(status: number, code: ChatHttpErrorCode, message: string, options: ChatHttpErrorOptions = {}) {
    super(code, message, { cause: options.cause });
    this.name = "ChatHttpError";
    this.status = status;
    this.reason = options.reason;
    this.headers = options.headers ?? {};
  }

  /** The body the client reads. */
  body(): ChatErrorBody {
    const body: ChatErrorBody = { error: this.code, message: this.message };
    if (this.reason !== undefined) body.reason = this.reason;
    return body;
  }

  /** The JSON response for this error. */
  toResponse(): Response {
    return jsonResponse(this.status, this.body(), this.headers);
  }
}

/** A JSON response that no cache keeps and no browser sniffs. */
export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: {
      "content-type": "application/json; charset=utf-8",
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
      ...headers,
    },
  });
}
