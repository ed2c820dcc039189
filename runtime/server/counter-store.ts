/**
 * Where the rate limit, the daily budget and Turnstile's single-use check
 * keep their numbers. One atomic operation is enough for all three: the
 * budget reserves with a positive `increment`, settles with a second one
 * (usually negative) and rolls back a refused reservation the same way.
 */
export interface CounterStore {
  /**
   * Adds `by` (an integer, possibly negative) to the counter at `key` and
   * resolves to its new value, atomically. A key that does not exist starts
   * at 0 and expires `ttlMs` milliseconds after that first increment; later
   * increments keep its expiry. Rejects when the store cannot be reached.
   */
  increment(key: string, by: number, ttlMs: number): Promise<number>;
}

/** What {@link createMemoryCounterStore} takes. */
export interface MemoryCounterStoreOptions {
  /** The clock, in milliseconds. Default `Date.now`. */
  now?: () => number;
}

interface Counter {
  value: number;
  expiresAt: number;
}

/** Expired counters are swept once the map holds this many (a day's keys are few; rate-limit keys are per client). */
const SWEEP_AT = 10_000;

/**
 * A {@link CounterStore} in this process's memory: the default. Right for one
 * server process; a site that runs several instances shares one Redis
 * instead ({@link createRedisCounterStore}), or each instance enforces its
 * own limits.
 */
export function createMemoryCounterStore(options: MemoryCounterStoreOptions = {}): CounterStore {
  const now = options.now ?? Date.now;
  const counters = new Map<string, Counter>();
  let sweepAt = SWEEP_AT;

  const sweep = (time: number) => {
    for (const [key, counter] of counters) if (counter.expiresAt <= time) counters.delete(key);
    sweepAt = Math.max(SWEEP_AT, counters.size * 2);
  };

  return {
    async increment(key, by, ttlMs) {
      const time = now();
      if (counters.size >= sweepAt) sweep(time);
      let counter = counters.get(key);
      if (counter === undefined || counter.expiresAt <= time) {
        counter = { value: 0, expiresAt: time + ttlMs };
        counters.set(key, counter);
      }
      counter.value += by;
      return counter.value;
    },
  };
}
