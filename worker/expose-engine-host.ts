import * as Comlink from "comlink";
import { coalesceEvents, type EventBatch } from "./coalesce-events.js";
import { toEngineError } from "./engine-error.js";
import type { EngineErrorCode, EngineErrorData, EngineHost, StepRequest } from "./protocol.js";

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
 * What a generation's port carries to the worker: one request, tagged with
 * the client's key for it; or a cancel, which on this port can never
 * overtake the request it cancels (a Stop pressed as the request leaves).
 */
export type GenerationCall = { key: number; request: StepRequest } | { cancel: string };

/** What it carries back: a frame's events (coalesce-events.ts), then `done` or the error as data. */
export type GenerationReply = { key: number; events: EventBatch } | { key: number; done: true } | { key: number; error: EngineErrorData };

/**
 * The host as the worker exposes it: the {@link EngineHost} methods but
 * `generate`, with errors as data and every callback's last call delivered
 * before the method resolves, and `openGenerations`: the client hands over
 * one port when it connects, and each generation's request then crosses as
 * one message on it, its events coming back on it (no comlink call, no
 * channel made per generation, no reply per event).
 */
export interface WiredEngineHost extends Omit<EngineHost, "generate"> {
  openGenerations(port: MessagePort): void;
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
