import type { ChatErrorBody } from "../../server/chat-wire.js";
import type { AgentStreamPart } from "../../session/agent-stream-part.js";
import { CLOUD_MESSAGES } from "./cloud-messages.js";

/** An `error` stream part. */
export type ErrorPart = Extract<AgentStreamPart, { type: "error" }>;

/** A `Retry-After` longer than this reads as the day's limit, not a burst limit (the createCloudAdapter reference). */
const DAILY_RETRY_AFTER_SECONDS = 60 * 60;

/**
 * Seconds to wait from a `Retry-After` header: delay-seconds or an HTTP date
 * (RFC 9110 §10.2.3). `undefined` when absent or unreadable.
 */
export function parseRetryAfter(header: string | null, now = Date.now()): number | undefined {
  if (header === null) return undefined;
  const trimmed = header.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000));
}

/**
 * The `error` part for a POST the server refused: pure, from the status, the
 * JSON body (a `ChatErrorBody`, when it parsed) and the `Retry-After` header.
 * 401 `session_required` never gets here: the adapter starts a session and
 * retries first.
 */
export function httpErrorPart(
  status: number,
  body: Partial<ChatErrorBody> | undefined,
  retryAfter: string | null,
  now = Date.now(),
): ErrorPart {
  switch (status) {
    case 400:
    case 415:
      return { type: "error", error: CLOUD_MESSAGES.badRequest, code: "bad_request" };
    case 413:
      return { type: "error", error: CLOUD_MESSAGES.tooLong, code: "bad_request" };
    case 403:
      return { type: "error", error: CLOUD_MESSAGES.forbidden, code: "forbidden_origin" };
    case 429: {
      const seconds = parseRetryAfter(retryAfter, now);
      if (seconds !== undefined && seconds > DAILY_RETRY_AFTER_SECONDS) {
        return { type: "error", error: CLOUD_MESSAGES.dailyLimit, code: "rate_limited" };
      }
      return { type: "error", error: CLOUD_MESSAGES.rateLimited(seconds), code: "rate_limited" };
    }
    case 503:
      if (body?.error === "chat_disabled") return { type: "error", error: CLOUD_MESSAGES.notConfigured, code: "chat_disabled" };
      if (body?.reason === "daily_budget") return { type: "error", error: CLOUD_MESSAGES.dailyLimit, code: "rate_limited" };
      return { type: "error", error: CLOUD_MESSAGES.busy, code: "busy" };
    case 401:
      return { type: "error", error: CLOUD_MESSAGES.sessionFailed, code: "session_required" };
    default:
      return { type: "error", error: CLOUD_MESSAGES.failed(status), code: "internal" };
  }
}
