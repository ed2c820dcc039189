import type { WorkerLike } from "./engine-client.js";
import { isWorkerHello, type ClientHello } from "./protocol.js";

/** What the endpoint needs of a SharedWorker: its port, and its `error` event (a script that failed to start). */
export type SharedWorkerLike = Pick<SharedWorker, "port" | "addEventListener">;
/** What it needs of `navigator.locks` (a double in Node, which has none before 22). */
export type WebLocks = Pick<LockManager, "request">;

/**
 * A SharedWorker's port as the engine client's {@link WorkerLike}: this
 * tab's connection to the origin's one engine host (worker/serve-engine-clients.ts).
 *
 * Before the first comlink message it takes a Web Lock named for this tab
 * and says hello with that name: the worker watches the lock to cancel this
 * tab's work once the tab is gone. The worker answers with its own lock, which
 * this tab watches: when the worker is gone (it ended itself after a failed
 * load, or the browser stopped it) the client hears an `error` and fails
 * what is in flight with `worker_died`, as for a dedicated worker. No
 * MessagePort event says either (Chromium 156 fires no `close`).
 * `terminate()` ends this tab's connection only; the model stays loaded
 * for the other tabs.
 */
export function sharedWorkerEndpoint(worker: SharedWorkerLike, locks: WebLocks = navigator.locks): WorkerLike {
  const { port } = worker;
  const events = new EventTarget();
  const client = `web-agents:tab:${crypto.randomUUID()}`;
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let closed = false;
  // Ends the wait on the worker's lock when this tab disconnects.
  const stopWatching = new AbortController();
  const fail = (message: string) => {
    if (!closed) events.dispatchEvent(Object.assign(new Event("error"), { message }));
  };
  const waiting: [unknown, Transferable[]][] = [];
  let ready = false;
  // Said once the lock is granted, so the worker's request for it can only wait behind this tab's.
  void locks.request(client, () => {
    if (closed) return;
    port.postMessage({ webAgentsClient: client } satisfies ClientHello);
    ready = true;
    for (const [message, transfer] of waiting.splice(0)) port.postMessage(message, transfer);
    return held;
  });
  worker.addEventListener("error", (event) => fail((event as ErrorEvent).message || "the shared model worker could not start"));
  port.addEventListener("messageerror", () => events.dispatchEvent(new Event("messageerror")));
  const listeners = new Map<EventListenerOrEventListenerObject, EventListener>();
  port.addEventListener("message", ({ data }: MessageEvent) => {
    if (!isWorkerHello(data)) return;
    locks.request(data.webAgentsWorker, { signal: stopWatching.signal }, () => fail("the shared model worker stopped")).catch(() => {});
  });
  port.start();
  return {
    postMessage(message: unknown, transfer: Transferable[] = []) {
      if (ready) port.postMessage(message, transfer);
      else waiting.push([message, transfer]);
    },
    addEventListener(type: string, listener: EventListenerOrEventListenerObject) {
      if (type !== "message") return events.addEventListener(type, listener);
      // The worker's hello is this file's, never comlink's.
      const call = typeof listener === "function" ? listener : listener.handleEvent.bind(listener);
      const filtered: EventListener = (event) => {
        if (!isWorkerHello((event as MessageEvent).data)) call(event);
      };
      listeners.set(listener, filtered);
      port.addEventListener("message", filtered);
    },
    removeEventListener(type: string, listener: EventListenerOrEventListenerObject) {
      if (type !== "message") return events.removeEventListener(type, listener);
      const filtered = listeners.get(listener);
      if (filtered) port.removeEventListener("message", filtered);
      listeners.delete(listener);
    },
    terminate() {
      closed = true;
      stopWatching.abort();
      port.close();
      release();
    },
  };
}
