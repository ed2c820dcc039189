/**
 * The counters behind the rate limit and the daily budget: in memory and on
 * a real redis-server started here. 200 parallel requests against a budget
 * near its cap overshoot it by at most one request's cost; two handler
 * instances on one Redis enforce one limit; an unreachable Redis closes the
 * budget and opens the rate limit, both logged.
 */
import { createClient } from "redis";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { ChatHandlerOptions } from "./chat-handler-options.js";
import { createMemoryCounterStore, type CounterStore } from "./counter-store.js";
import { createChatHandler } from "./create-chat-handler.js";
import { createRedisCounterStore, type RedisCounterClient, type RedisCounterStore } from "./create-redis-counter-store.js";
import { dailyBudgetKey } from "./daily-budget.js";
import { scriptedModel, textStep } from "./test-support/scripted-model.js";
import { freePort, startRedis, type RunningRedis } from "./test-support/redis-server.js";
import { expectNoSecretsInResponses, postJson, serveHandler, user, type Served } from "./test-support/serve-handler.js";
import { clearOfWindowEdge } from "./test-support/clear-of-window-edge.js";

// Each step reports 10 input + 5 output tokens and reserves 20.
const STEP_COST = 15;
const RESERVE = 20;
const CAP = 10_000;

const servers: Served[] = [];
const stores: RedisCounterStore[] = [];

async function serve(options: Partial<ChatHandlerOptions>): Promise<Served> {
  const served = await serveHandler(
    createChatHandler({
      // A few ms per chunk keeps many requests in flight at once.
      model: scriptedModel(() => textStep("ok", [10, 5]), "scripted", 2),
      logger: { warn: vi.fn(), error: vi.fn() },
      ...options,
    }),
  );
  servers.push(served);
  return served;
}

const DAY = 26 * 3_600_000;
const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

/** `store` with 0-4 ms of latency before and after each increment, as a network adds: requests then interleave inside the budget check. */
function withLatency(store: CounterStore): CounterStore {
  return {
    async increment(key, by, ttlMs) {
      await sleep(Math.random() * 4);
      const value = await store.increment(key, by, ttlMs);
      await sleep(Math.random() * 4);
      return value;
    },
  };
}
const read = (store: CounterStore, key: string) => store.increment(key, 0, DAY);

/** Fires `count` POSTs at once across `urls` (round robin); resolves to their statuses. */
async function burst(urls: string[], count: number): Promise<number[]> {
  return Promise.all(
    Array.from({ length: count }, async (_, index) => {
      const response = await postJson(urls[index % urls.length] ?? "", { messages: [user(`hi ${index}`)] });
      const text = await response.text();
      if (response.status === 503) expect(JSON.parse(text)).toMatchObject({ reason: "daily_budget" });
      return response.status;
    }),
  );
}

/** Fills the day's budget to `CAP - room`, runs 200 parallel requests, and checks the overshoot. */
async function expectBoundedOvershoot(store: CounterStore, urls: string[], room: number): Promise<void> {
  const key = dailyBudgetKey();
  await store.increment(key, CAP - room - (await read(store, key)), DAY);
  const statuses = await burst(urls, 200);
  const admitted = statuses.filter((status) => status === 200).length;
  expect(statuses.filter((status) => status !== 200 && status !== 503)).toEqual([]);
  expect(admitted).toBeGreaterThanOrEqual(1);
  // No wait needed: settleAfter awaits each settle before its body ends, and burst read every body.
  const spent = await read(store, key);
  if (process.env.DEBUG_BUDGET) console.log("admitted", admitted, "spent - cap", spent - CAP);
  // Every reservation was settled to the real cost or returned.
  expect(spent).toBe(CAP - room + admitted * STEP_COST);
  expect(spent - CAP).toBeLessThanOrEqual(STEP_COST);
}

afterEach(async () => {
  await Promise.all(servers.splice(0).map((served) => served.close()));
  await Promise.all(stores.splice(0).map((store) => store.close()));
});

afterAll(async () => {
  await expectNoSecretsInResponses();
});

describe("the in-memory store", () => {
  it("adds, expires after ttl, and takes negative amounts", async () => {
    let time = 1_000;
    const store = createMemoryCounterStore({ now: () => time });
    expect(await store.increment("a", 5, 100)).toBe(5);
    expect(await store.increment("a", -2, 100)).toBe(3);
    time += 99;
    expect(await store.increment("a", 1, 100)).toBe(4);
    time += 1;
    expect(await store.increment("a", 1, 100)).toBe(1);
  });

  it("200 parallel requests near the cap overshoot it by at most one request's cost", async () => {
    const store = createMemoryCounterStore();
    const served = await serve({ store: withLatency(store), dailyBudget: { tokens: CAP, reserve: RESERVE } });
    await expectBoundedOvershoot(store, [served.url], 10 * STEP_COST + 5);
  });
});

describe("the Redis store (a real redis-server)", () => {
  let redis: RunningRedis;
  let prefix = 0;
  const store = (options: { timeout?: number } = {}) => {
    const created = createRedisCounterStore(redis.url, { prefix: `test-${process.pid}-${prefix}:`, ...options });
    stores.push(created);
    return created;
  };

  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await redis?.stop();
  });
  afterEach(() => {
    prefix += 1;
  });

  it("adds atomically and expires keys", async () => {
    const counters = store();
    const values = await Promise.all(Array.from({ length: 50 }, () => counters.increment("n", 1, 200)));
    expect(new Set(values).size).toBe(50);
    expect(Math.max(...values)).toBe(50);
    expect(await counters.increment("n", -10, 200)).toBe(40);
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(await counters.increment("n", 1, 200)).toBe(1);
  });

  it("takes a node-redis client the caller manages", async () => {
    const client = createClient({ url: redis.url });
    await client.connect();
    try {
      const typed: RedisCounterClient = client;
      const counters = createRedisCounterStore(typed, { prefix: `client-${process.pid}:` });
      expect(await counters.increment("k", 7, 1000)).toBe(7);
      await counters.close();
      expect(client.isOpen).toBe(true);
    } finally {
      client.destroy();
    }
  });

  it("200 parallel requests near the cap overshoot it by at most one request's cost", async () => {
    const counters = store();
    const served = await serve({ store: withLatency(counters), dailyBudget: { tokens: CAP, reserve: RESERVE } });
    await expectBoundedOvershoot(counters, [served.url], 10 * STEP_COST + 5);
  });

  it("two handler instances sharing one Redis enforce one budget", async () => {
    const shared = `shared-${process.pid}-${prefix}:`;
    const first = createRedisCounterStore(redis.url, { prefix: shared });
    const second = createRedisCounterStore(redis.url, { prefix: shared });
    stores.push(first, second);
    const a = await serve({ store: withLatency(first), dailyBudget: { tokens: CAP, reserve: RESERVE } });
    const b = await serve({ store: withLatency(second), dailyBudget: { tokens: CAP, reserve: RESERVE } });
    await expectBoundedOvershoot(first, [a.url, b.url], 10 * STEP_COST + 5);
  });

  it("two handler instances sharing one Redis enforce one rate limit", async () => {
    // The limit counts in fixed windows: all of this test's requests in one.
    await clearOfWindowEdge(60_000);
    const shared = `rate-${process.pid}-${prefix}:`;
    const first = createRedisCounterStore(redis.url, { prefix: shared });
    const second = createRedisCounterStore(redis.url, { prefix: shared });
    stores.push(first, second);
    const options = { rateLimit: { requests: 5, windowMs: 60_000 }, clientKey: () => "one-client" };
    const a = await serve({ ...options, store: first });
    const b = await serve({ ...options, store: second });
    const statuses = await Promise.all(
      Array.from({ length: 12 }, async (_, index) => {
        const response = await postJson((index % 2 === 0 ? a : b).url, { messages: [user("hi")] });
        await response.text();
        return response.status;
      }),
    );
    expect(statuses.filter((status) => status === 200)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(7);
  });
});

describe("an unreachable Redis", () => {
  let url: string;
  beforeAll(async () => {
    url = `redis://127.0.0.1:${await freePort()}`;
  });

  it("closes the daily budget: 503 busy, logged", async () => {
    const logger = { warn: vi.fn(), error: vi.fn() };
    const counters = createRedisCounterStore(url, { timeout: 300, logger });
    stores.push(counters);
    const served = await serve({ store: counters, dailyBudget: { tokens: CAP }, logger });
    const response = await postJson(served.url, { messages: [user("hi")] });
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({ error: "busy", reason: "budget_unavailable" });
    expect(logger.error).toHaveBeenCalledWith(expect.stringContaining("fails closed"), expect.anything());
  });

  it("opens the rate limit: the request goes through, logged", async () => {
    const logger = { warn: vi.fn(), error: vi.fn() };
    const counters = createRedisCounterStore(url, { timeout: 300, logger });
    stores.push(counters);
    const served = await serve({ store: counters, rateLimit: { requests: 1, windowMs: 60_000 }, logger });
    for (let index = 0; index < 2; index += 1) {
      const response = await postJson(served.url, { messages: [user("hi")] });
      expect(response.status).toBe(200);
      await response.text();
    }
    expect(logger.warn).toHaveBeenCalledWith(expect.stringContaining("fail open"), expect.anything());
  });
});
