import * as Comlink from "comlink";
import { coalesceEvents } from "./coalesce-events.js";
import { toEngineError } from "./engine-error.js";
import type { EngineErrorCode, EngineHost, StepRequest } from "./protocol.js";

type Callback<T> = (value: T) => unknown;

/**
 * Runs `task` with a callback that forwards to `remote` (a comlink proxy),
 * then waits for the last forwarded call to be delivered: proxied callbacks
 * travel on their own port, so without this the method's result could
 * overtake its last event. Releases the proxy's port afterwards.
 */
async function withRemoteCallback<T, R>(remote: Callback<T>, task: (callback: (value: T) => void) => Promise<R>): Promise<R> {
  let last: Promise<unknown> = Promise.resolve();
  try {
    return await task((value) => {
      last = Promise.resolve(remote(value)).catch(() => {});
    });
  } finally {
    await last;
    (remote as unknown as { [Comlink.releaseProxy]?: () => void })[Comlink.releaseProxy]?.();
  }
}

/** Rejections cross comlink as plain `EngineErrorData` (comlink would keep only an Error's message). */
async function asData<R>(fallback: EngineErrorCode, task: () => Promise<R>): Promise<R> {
  try {
    return await task();
  } catch (error) {
    throw toEngineError(error, fallback).toData();
  }
}

/**
 * The host as the worker exposes it: the same {@link EngineHost} methods,
 * with errors as data and every callback's last call delivered before the
 * method resolves; except `generate`, which takes a `MessagePort` for its
 * events instead of a callback (see `engine-client.ts`).
 */
export function wireEngineHost(host: EngineHost): EngineHost {
  return {
    probe: () => asData("unsupported_device", () => host.probe()),
    cacheStatus: (model) => asData("load_failed", () => host.cacheStatus(model)),
    download: (id, model, onProgress) => asData("download_failed", () => withRemoteCallback(onProgress, (forward) => host.download(id, model, forward))),
    load: (model, onProgress) => asData("load_failed", () => withRemoteCallback(onProgress, (forward) => host.load(model, forward))),
    // Events go out on the port the client sent with the request, no reply (a comlink callback
    // costs a round trip per token), a frame's worth in one message (coalesce-events.ts);
    // `null` after the last says it is over.
    generate: ((request: StepRequest, port: MessagePort) =>
      asData("generation_failed", async () => {
        const events = coalesceEvents((batch) => port.postMessage(batch));
        try {
          await host.generate(request, (event) => events.push(event));
        } finally {
          events.flush();
          port.postMessage(null);
          port.close();
        }
      })) as unknown as EngineHost["generate"],
    cancel: (id) => asData("generation_failed", () => host.cancel(id)),
    deleteModel: (model) => asData("load_failed", () => host.deleteModel(model)),
  };
}

/** Exposes `host` on `endpoint` (the worker's `self`, or a MessagePort in tests). */
export function exposeEngineHost(host: EngineHost, endpoint?: Comlink.Endpoint): void {
  Comlink.expose(wireEngineHost(host), endpoint);
}
