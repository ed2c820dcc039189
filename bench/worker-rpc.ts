/**
 * A minimal request/response channel for the bench's raw workers (no
 * comlink, so the raw paths carry no library of the runtime's): each call
 * has an id; a worker posts `{ id, event }` any number of times, then
 * `{ id, result }` or `{ id, error }`.
 */

type Handler = (args: never, emit: (event: unknown) => void) => Promise<unknown>;

interface Message {
  id: number;
  event?: unknown;
  result?: unknown;
  error?: string;
}

/** In a worker: answers `{ id, method, args }` messages with `handlers[method]`. */
export function serveWorker(handlers: Record<string, Handler>): void {
  const scope = globalThis as unknown as { postMessage(message: unknown): void; addEventListener(type: "message", listener: (event: MessageEvent) => void): void };
  scope.addEventListener("message", (event: MessageEvent) => {
    const { id, method, args } = event.data as { id: number; method: string; args: unknown };
    const handler = handlers[method];
    if (!handler) return scope.postMessage({ id, error: `no method ${method}` });
    handler(args as never, (payload) => scope.postMessage({ id, event: payload })).then(
      (result) => scope.postMessage({ id, result }),
      (error: unknown) => scope.postMessage({ id, error: error instanceof Error ? `${error.message}\n${error.stack ?? ""}` : String(error) }),
    );
  });
}

/** On the page: calls `method` in `worker`, passing each event to `onEvent`. */
export function callWorker<T>(worker: Worker, method: string, args: unknown, onEvent: (event: never) => void = () => {}): Promise<T> {
  const id = (callWorker as unknown as { next?: number }).next = ((callWorker as unknown as { next?: number }).next ?? 0) + 1;
  return new Promise<T>((resolve, reject) => {
    const listener = (event: MessageEvent) => {
      const message = event.data as Message;
      if (message.id !== id) return;
      if ("event" in message) return onEvent(message.event as never);
      worker.removeEventListener("message", listener);
      worker.removeEventListener("error", onError);
      if (message.error !== undefined) reject(new Error(message.error));
      else resolve(message.result as T);
    };
    const onError = (event: ErrorEvent) => {
      worker.removeEventListener("message", listener);
      reject(new Error(`worker failed: ${event.message}`));
    };
    worker.addEventListener("message", listener);
    worker.addEventListener("error", onError);
    worker.postMessage({ id, method, args });
  });
}
