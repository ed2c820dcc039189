import * as Comlink from "comlink";
import { coalesceEvents } from "./coalesce-events.js";
import { toEngineError } from "./engine-error.js";
import type { EngineErrorCode, EngineHost, GenerationCall, GenerationReply, WiredEngineHost } from "./protocol.js";

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

/** Runs each request that arrives on `port`, posting its events a frame's worth at a time. */
function serveGenerations(host: EngineHost, port: MessagePort): void {
  port.onmessage = ({ data }: MessageEvent<GenerationCall>) => {
    if ("cancel" in data) return void host.cancel(data.cancel).catch(() => {});
    const { key, request } = data;
    const events = coalesceEvents((batch) => port.postMessage({ key, events: batch } satisfies GenerationReply));
    host.generate(request, (event) => events.push(event)).then(
      () => {
        events.flush();
        port.postMessage({ key, done: true } satisfies GenerationReply);
      },
      (error: unknown) => {
        events.flush();
        port.postMessage({ key, error: toEngineError(error, "generation_failed").toData() } satisfies GenerationReply);
      },
    );
  };
}

export function wireEngineHost(host: EngineHost): WiredEngineHost {
  return {
    probe: () => asData("unsupported_device", () => host.probe()),
    cacheStatus: (model) => asData("load_failed", () => host.cacheStatus(model)),
    download: (id, model, onProgress) => asData("download_failed", () => withRemoteCallback(onProgress, (forward) => host.download(id, model, forward))),
    load: (model, onProgress) => asData("load_failed", () => withRemoteCallback(onProgress, (forward) => host.load(model, forward))),
    openGenerations: (port) => serveGenerations(host, port),
    cancel: (id) => asData("generation_failed", () => host.cancel(id)),
    deleteModel: (model) => asData("load_failed", () => host.deleteModel(model)),
  };
}

/** Exposes `host` on `endpoint` (the worker's `self`, or a MessagePort in tests). */
export function exposeEngineHost(host: EngineHost, endpoint?: Comlink.Endpoint): void {
  Comlink.expose(wireEngineHost(host), endpoint);
}
