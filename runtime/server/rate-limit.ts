import { ChatHttpError } from "./chat-http-error.js";
import type { ChatLogger } from "./chat-logger.js";
import type { CounterStore } from "./counter-store.js";

/** What `createChatHandler({ rateLimit })` takes. */
export interface RateLimitOptions {
  /** POSTs (model steps) one client may send per window: a positive integer. */
  requests: number;
  /** The window's length in milliseconds, for example `60_000`. */
  windowMs: number;
}

/**
 * @throws TypeError naming the fix when `requests` or `windowMs` is not a positive integer.
 */
export function checkRateLimitOptions(options: RateLimitOptions): void {
  for (const name of ["requests", "windowMs"] as const) {
    const value = options[name];
    if (!Number.isInteger(value) || value <= 0) {
      throw new TypeError(`rateLimit.${name} must be a positive integer; got ${String(value)}.`);
    }
  }
}

/**
 * Counts one request for `clientKey` in a fixed window. Fails open: when the
 * store cannot be reached the request goes through, and the failure is
 * logged (a limit that blocks everyone when Redis hiccups hurts more than a
 * minute without one; the daily budget still fails closed).
 *
 * @throws ChatHttpError 429 `rate_limited` with `Retry-After` (seconds to the window's end).
 */
export async function checkRateLimit(
  store: CounterStore,
  clientKey: string,
  options: RateLimitOptions,
  logger: ChatLogger,
  now: number = Date.now(),
): Promise<void> {
  const window = Math.floor(now / options.windowMs);
  let count: number;
  try {
    count = await store.increment(`rate:${window}:${clientKey}`, 1, options.windowMs);
  } catch (error) {
    logger.warn("webmcp-agents: the counter store is unreachable; the rate limit is off for this request (fail open)", error);
    return;
  }
  if (count <= options.requests) return;
  const retryAfter = Math.max(1, Math.ceil(((window + 1) * options.windowMs - now) / 1000));
  throw new ChatHttpError(
    429,
    "rate_limited",
    `Too many messages in a short time. Try again in ${retryAfter} second${retryAfter === 1 ? "" : "s"}.`,
    { headers: { "retry-after": String(retryAfter) } },
  );
}
