import type { CounterStore } from "./counter-store.js";
import type { ChatLogger } from "./chat-logger.js";

/**
 * The part of a node-redis (`redis` package, v4 or v5) client the store uses.
 * A client from `createClient()` fits.
 */
export interface RedisCounterClient {
  readonly isReady: boolean;
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
}

/** What {@link createRedisCounterStore} takes besides the URL or client. */
export interface RedisCounterStoreOptions {
  /** Prepended to every key, so one Redis can serve several sites. Default `"webmcp-agents:"`. */
  prefix?: string;
  /**
   * Milliseconds one increment may take, waiting for a connection included,
   * before it rejects (and the budget fails closed, the rate limit open).
   * Default `1000`.
   */
  timeout?: number;
  /** Where connection errors of a client the store created are reported, at most once every 30 s. Default `console`. */
  logger?: ChatLogger;
}

/** A {@link CounterStore} on Redis. */
export interface RedisCounterStore extends CounterStore {
  /** Disconnects a client the store created from a URL; does nothing to a client you passed in. */
  close(): Promise<void>;
}

// INCRBY then an expiry only when the key has none, in one atomic script
// (PEXPIRE's NX flag needs Redis 7; this runs on any version with Lua).
const INCREMENT = `
local value = redis.call('INCRBY', KEYS[1], ARGV[1])
if redis.call('PTTL', KEYS[1]) < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return value
`;

const ERROR_LOG_INTERVAL = 30_000;

/**
 * A {@link CounterStore} on Redis, for sites that run several server
 * instances: they then share one rate limit and one daily budget. Pass a
 * `redis://` URL (the store connects lazily, never queues commands while
 * offline and keeps reconnecting in the background) or a connected node-redis
 * client you manage yourself.
 *
 * The `redis` package is loaded only when a URL is given, so an edge bundle
 * that passes its own client never pulls in Node's `net`.
 *
 * @example
 * const store = createRedisCounterStore(process.env.REDIS_URL!);
 * const handler = createChatHandler({ model: "openai/gpt-5.5", store, dailyBudget: { tokens: 2_000_000 } });
 */
export function createRedisCounterStore(
  urlOrClient: string | RedisCounterClient,
  options: RedisCounterStoreOptions = {},
): RedisCounterStore {
  const prefix = options.prefix ?? "webmcp-agents:";
  const timeout = options.timeout ?? 1000;
  const logger = options.logger ?? console;
  let owned: { destroy(): void } | undefined;
  let closed = false;
  let waiters: Array<() => void> = [];

  const client: Promise<RedisCounterClient> =
    typeof urlOrClient === "string"
      ? connect(urlOrClient).catch((error: unknown) => {
          logger.error("webmcp-agents: could not load the redis package for the counter store", error);
          throw error;
        })
      : Promise.resolve(urlOrClient);
  // A failed load surfaces on each increment; keep it from being an unhandled rejection here.
  client.catch(() => {});

  async function connect(url: string): Promise<RedisCounterClient> {
    // redis is an optional peer dependency: only a server that counts in Redis installs it.
    const { createClient } = await import("redis").catch((error: unknown) => {
      throw new Error("createRedisCounterStore(url) needs the redis package on the server: npm install redis (or pass a connected client).", { cause: error });
    });
    const created = createClient({
      url,
      disableOfflineQueue: true,
      socket: { connectTimeout: timeout, reconnectStrategy: (retries: number) => Math.min(100 * 2 ** retries, 2000) },
    });
    let lastLogged = 0;
    // node-redis emits `error` on every failed reconnect; an unlistened `error` would crash the process.
    created.on("error", (error: unknown) => {
      const time = Date.now();
      if (time - lastLogged < ERROR_LOG_INTERVAL) return;
      lastLogged = time;
      logger.warn("webmcp-agents: the Redis counter store cannot reach Redis; retrying in the background", error);
    });
    created.on("ready", () => {
      const ready = waiters;
      waiters = [];
      ready.forEach((resolve) => resolve());
    });
    owned = created;
    if (closed) created.destroy();
    // connect() stays pending while it retries; readiness is awaited per call instead.
    else created.connect().catch(() => {});
    return created as unknown as RedisCounterClient;
  }

  // Only a client the store created is waited for: it reports `ready` to the waiters. A client
  // passed in is the caller's to connect; its commands run (or fail) as its own options say.
  const whenReady = (redis: RedisCounterClient, deadline: number): Promise<void> =>
    redis.isReady || owned === undefined
      ? Promise.resolve()
      : new Promise<void>((resolve, reject) => {
          const timer = setTimeout(() => {
            waiters = waiters.filter((waiter) => waiter !== done);
            reject(new Error(`Redis is not connected (waited ${timeout} ms).`));
          }, Math.max(0, deadline - Date.now()));
          const done = () => {
            clearTimeout(timer);
            resolve();
          };
          waiters.push(done);
        });

  return {
    async increment(key, by, ttlMs) {
      if (closed) throw new Error("The Redis counter store is closed.");
      const deadline = Date.now() + timeout;
      const redis = await client;
      await whenReady(redis, deadline);
      let timer: ReturnType<typeof setTimeout> | undefined;
      const expired = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`Redis did not answer within ${timeout} ms.`)),
          Math.max(0, deadline - Date.now()),
        );
      });
      try {
        const value = await Promise.race([
          redis.eval(INCREMENT, {
            keys: [prefix + key],
            arguments: [String(Math.round(by)), String(Math.max(1, Math.round(ttlMs)))],
          }),
          expired,
        ]);
        return Number(value);
      } finally {
        clearTimeout(timer);
      }
    },
    async close() {
      closed = true;
      owned?.destroy();
    },
  };
}
