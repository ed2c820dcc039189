import { afterEach, describe, expect, it, vi } from "vitest";
import { withModelLock } from "./model-lock.js";

/** A minimal Web Locks API: one holder per name, the rest queued in order. */
function fakeLocks() {
  const held = new Map<string, Promise<unknown>>();
  const requested: { name: string; ifAvailable: boolean }[] = [];
  return {
    requested,
    async request(name: string, options: { ifAvailable?: boolean; signal?: AbortSignal }, callback: (lock: object | null) => Promise<unknown>) {
      requested.push({ name, ifAvailable: options.ifAvailable === true });
      if (options.ifAvailable && held.has(name)) return callback(null);
      while (held.has(name)) await held.get(name)!.catch(() => {});
      const run = callback({ name });
      held.set(name, run);
      try {
        return await run;
      } finally {
        held.delete(name);
      }
    },
  };
}

describe("withModelLock", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("runs the task at once where navigator.locks is missing", async () => {
    vi.stubGlobal("navigator", {});
    expect(await withModelLock("m", async () => 42)).toBe(42);
  });

  it("runs tasks for one model one after the other, the second polling while it waits", async () => {
    const locks = fakeLocks();
    vi.stubGlobal("navigator", { locks });
    const order: string[] = [];
    let release!: () => void;
    const first = withModelLock("qwen/wasm", async () => {
      order.push("first start");
      await new Promise<void>((resolve) => (release = resolve));
      order.push("first end");
    });
    await vi.waitFor(() => expect(order).toEqual(["first start"]));
    let polls = 0;
    const second = withModelLock("qwen/wasm", async () => void order.push("second"), { whileWaiting: () => void polls++, pollMs: 5 });
    await vi.waitFor(() => expect(polls).toBeGreaterThan(1));
    expect(order).toEqual(["first start"]);
    release();
    await Promise.all([first, second]);
    expect(order).toEqual(["first start", "first end", "second"]);
    expect(locks.requested.every((request) => request.name === "web-agents-model:qwen/wasm")).toBe(true);
  });
});
