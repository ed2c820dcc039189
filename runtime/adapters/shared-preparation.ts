import { abortable } from "./abortable.js";

/**
 * One download-and-load that every concurrent `prepare` of an adapter
 * shares: the first caller starts it (for a `key`: the model it prepares),
 * later ones wait on the same promise until it settles. A caller's signal
 * ends only its own wait; the task itself is aborted once every caller that
 * gave a signal has aborted (another may still want the model).
 */
export class SharedPreparation {
  #current?: { key: string; controller: AbortController; callers: number; promise: Promise<void> };

  /** The key of the preparation in flight, if any. */
  get key(): string | undefined {
    return this.#current?.key;
  }

  /** Whether a preparation is in flight. */
  get running(): boolean {
    return this.#current !== undefined;
  }

  /** Waits for the preparation of `key`, starting it with `start` unless one for `key` is in flight. */
  async join(key: string, start: (signal: AbortSignal) => Promise<void>, signal?: AbortSignal): Promise<void> {
    if (!this.#current || this.#current.key !== key) {
      const controller = new AbortController();
      const current = { key, controller, callers: 0, promise: Promise.resolve() };
      current.promise = start(controller.signal).finally(() => {
        if (this.#current === current) this.#current = undefined;
      });
      current.promise.catch(() => {});
      this.#current = current;
    }
    const shared = this.#current;
    if (!signal) return shared.promise;
    shared.callers++;
    const leave = () => --shared.callers === 0 && shared.controller.abort();
    signal.addEventListener("abort", leave, { once: true });
    try {
      await abortable(shared.promise, signal);
    } finally {
      if (!signal.aborted) {
        signal.removeEventListener("abort", leave);
        shared.callers--;
      }
    }
  }
}
