import { ChatHttpError } from "./chat-http-error.js";
import type { ChatLogger } from "./chat-logger.js";
import type { CounterStore } from "./counter-store.js";

/** What `createChatHandler({ dailyBudget })` takes. */
export interface DailyBudgetOptions {
  /** Model tokens (input plus output) the whole site may spend per UTC day: a positive integer. */
  tokens: number;
  /**
   * Tokens reserved for a request before its model call, corrected to the
   * real usage after. Default: the prompt's length in characters / 3, plus
   * `maxOutputTokens` (4096 when that is not set). Spend passes `tokens` by
   * at most one request's reservation as long as no request uses more than
   * its reservation; set `maxOutputTokens` to make that hold.
   */
  reserve?: number;
}

/** A request's hold on the budget. */
export interface BudgetReservation {
  /** Tokens held. */
  readonly reserved: number;
  /**
   * Replaces the reservation with what the request used. `undefined` (usage
   * unknown, for example a stream cut mid-way) keeps the reservation. Never
   * rejects: a store failure is logged.
   */
  settle(usedTokens: number | undefined): Promise<void>;
}

// A day's key outlives the day by enough for late settles; it is read only during its day.
const DAY_KEY_TTL = 26 * 3_600_000;
const DAY = 86_400_000;

/** The counter key of the UTC day that `now` falls in: `budget:YYYY-MM-DD`. */
export function dailyBudgetKey(now: number = Date.now()): string {
  return `budget:${new Date(now).toISOString().slice(0, 10)}`;
}

/** @throws TypeError when `tokens` or `reserve` is not a positive integer. */
export function checkDailyBudgetOptions(options: DailyBudgetOptions): void {
  if (!Number.isInteger(options.tokens) || options.tokens <= 0) {
    throw new TypeError(`dailyBudget.tokens must be a positive integer; got ${String(options.tokens)}.`);
  }
  if (options.reserve !== undefined && (!Number.isInteger(options.reserve) || options.reserve <= 0)) {
    throw new TypeError(`dailyBudget.reserve must be a positive integer; got ${String(options.reserve)}.`);
  }
}

/**
 * Reserves `reserve` tokens of today's budget (UTC) with one atomic
 * increment. The request is admitted when the total before its reservation
 * was under the cap, so parallel requests near the cap overshoot it by at
 * most one reservation; a refused one takes its reservation back. Fails
 * closed: when the store cannot be reached, no request is admitted.
 *
 * @throws ChatHttpError 503 `busy` with reason `"daily_budget"` (and
 *   `Retry-After` to midnight UTC) when the day's budget is spent, or with
 *   reason `"budget_unavailable"` when the store cannot be reached.
 */
export async function reserveBudget(
  store: CounterStore,
  options: DailyBudgetOptions,
  reserve: number,
  logger: ChatLogger,
  now: number = Date.now(),
): Promise<BudgetReservation> {
  const key = dailyBudgetKey(now);
  const amount = Math.max(1, Math.ceil(reserve));
  let total: number;
  try {
    total = await store.increment(key, amount, DAY_KEY_TTL);
  } catch (error) {
    logger.error("webmcp-agents: the counter store is unreachable; refusing model calls (the daily budget fails closed)", error);
    throw new ChatHttpError(503, "busy", "The assistant is unavailable right now. Try again in a few minutes.", {
      reason: "budget_unavailable",
      headers: { "retry-after": "60" },
      cause: error,
    });
  }
  if (total - amount >= options.tokens) {
    await store.increment(key, -amount, DAY_KEY_TTL).catch((error: unknown) => {
      logger.error("webmcp-agents: could not return a refused budget reservation", error);
    });
    const retryAfter = Math.max(1, Math.ceil((DAY - (now % DAY)) / 1000));
    throw new ChatHttpError(503, "busy", "The assistant has used today's budget. Try again tomorrow.", {
      reason: "daily_budget",
      headers: { "retry-after": String(retryAfter) },
    });
  }
  let settled = false;
  return {
    reserved: amount,
    async settle(usedTokens) {
      if (settled || usedTokens === undefined) return;
      settled = true;
      const correction = Math.max(0, Math.round(usedTokens)) - amount;
      if (correction === 0) return;
      await store.increment(key, correction, DAY_KEY_TTL).catch((error: unknown) => {
        logger.error("webmcp-agents: could not settle a budget reservation; the day's count keeps the reservation", error);
      });
    },
  };
}
