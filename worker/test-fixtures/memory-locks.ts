import type { WebLocks } from "../shared-worker-endpoint.js";

type Callback = (lock: Lock | null) => unknown;

/**
 * Exclusive Web Locks in one thread, granted in the order asked, for Node
 * tests (Node has no `navigator.locks` before 22; Chromium's own are tested
 * in local-adapter.shared.browser.test.ts). A request's signal cancels it
 * only while it waits, as in the browser.
 */
export function memoryLocks(): WebLocks {
  const tails = new Map<string, Promise<unknown>>();
  const request = (name: string, second: LockOptions | Callback, third?: Callback): Promise<unknown> => {
    const callback = (typeof second === "function" ? second : third)!;
    const signal = typeof second === "function" ? undefined : second.signal;
    const before = tails.get(name) ?? Promise.resolve();
    let granted = false;
    const result = new Promise((resolve, reject) => {
      signal?.addEventListener("abort", () => {
        if (!granted) reject(new DOMException("The lock request was aborted.", "AbortError"));
      });
      void before.then(() => {
        if (signal?.aborted) return;
        granted = true;
        Promise.resolve()
          .then(() => callback({ name, mode: "exclusive" } as Lock))
          .then(resolve, reject);
      });
    });
    tails.set(name, before.then(() => result).catch(() => {}));
    return result;
  };
  return { request } as WebLocks;
}
