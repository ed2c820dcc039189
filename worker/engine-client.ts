import * as Comlink from "comlink";
import { EngineError, isEngineErrorData } from "./engine-error.js";
import type { GenerationCall, GenerationReply, WiredEngineHost } from "./expose-engine-host.js";
import type { CacheStatus, DeviceCapabilities, DownloadProgress, EngineEvent, EngineHost, LoadProgress, ModelSource, StepRequest } from "./protocol.js";

/** What the client needs of a worker: a comlink endpoint that can report errors and be terminated. */
export interface WorkerLike extends Comlink.Endpoint {
  terminate(): void;
}

/** Options for {@link createEngineClient}. */
export interface EngineClientOptions {
  /** Starts a worker, e.g. `() => new Worker(new URL("./engine-worker.js", import.meta.url), { type: "module" })`. */
  spawn: () => WorkerLike;
}

/** The main-thread engine: {@link EngineHost} over a worker, plus `terminate`. */
export interface EngineClient extends EngineHost {
  /** Stops the worker now; calls in flight fail with `worker_died`, the next call starts a new worker. */
  terminate(): void;
}

/** A generation in flight on the connection's port. */
interface Generation {
  onEvent: (event: EngineEvent) => void;
  settle: (error?: unknown) => void;
}

interface Connection {
  worker: WorkerLike;
  remote: Comlink.Remote<WiredEngineHost>;
  /** The generations' port, handed to the worker when it starts (`openGenerations`). */
  port: MessagePort;
  generations: Map<number, Generation>;
  /** Rejects with `worker_died` when the worker dies or is terminated. */
  died: Promise<never>;
  kill: (reason: string) => void;
}

/**
 * Talks to the engine host in a worker through comlink. Errors arrive as
 * data and are rethrown as {@link EngineError}; a worker that dies (`error`
 * event, or `terminate`) fails the calls in flight with `worker_died`, and
 * the next call starts a new worker, which loads the model from the cache
 * again because every request names its model. Concurrent `download` or
 * `load` calls for one model key share one call (each caller gets progress).
 */
export function createEngineClient(options: EngineClientOptions): EngineClient {
  let connection: Connection | undefined;
  const shared = new Map<string, { promise: Promise<void>; listeners: Set<(progress: never) => void>; workerId?: string }>();
  const downloadIds = new Map<string, string>();
  let generationKeys = 0;

  const connect = (): Connection => {
    if (connection) return connection;
    const worker = options.spawn();
    let kill!: (reason: string) => void;
    const died = new Promise<never>((_, reject) => {
      kill = (reason) => reject(new EngineError({ code: "worker_died", message: `The model worker stopped (${reason}). Try again: it restarts and reloads the model from this device.` }));
    });
    died.catch(() => {});
    const remote = Comlink.wrap<WiredEngineHost>(worker);
    // Set up with the worker, before any generation: each request then crosses as one message on it.
    const { port1, port2 } = new MessageChannel();
    void remote.openGenerations(Comlink.transfer(port2, [port2])).catch(() => {});
    const generations = new Map<number, Generation>();
    port1.onmessage = ({ data }: MessageEvent<GenerationReply>) => {
      const generation = generations.get(data.key);
      if (!generation) return;
      if ("events" in data) {
        if (Array.isArray(data.events)) data.events.forEach((event) => generation.onEvent(event));
        else generation.onEvent(data.events);
      } else generation.settle("error" in data ? data.error : undefined);
    };
    const current: Connection = { worker, remote, port: port1, generations, died, kill: () => {} };
    current.kill = (reason) => {
      if (connection === current) connection = undefined;
      port1.close();
      current.remote[Comlink.releaseProxy]();
      worker.terminate();
      kill(reason);
    };
    worker.addEventListener("error", (event) => current.kill((event as ErrorEvent).message || "it crashed"));
    worker.addEventListener("messageerror", () => current.kill("a message could not be read"));
    connection = current;
    return current;
  };

  const call = async <T>(task: (remote: Comlink.Remote<WiredEngineHost>, current: Connection) => Promise<T>): Promise<T> => {
    const current = connect();
    try {
      return await Promise.race([task(current.remote, current), current.died]);
    } catch (error) {
      if (EngineError.isInstance(error)) throw error;
      if (isEngineErrorData(error)) throw EngineError.fromData(error);
      throw new EngineError({ code: "generation_failed", message: error instanceof Error ? error.message : "The model worker failed." }, { cause: error });
    }
  };

  const share = <P>(
    kind: string,
    model: ModelSource,
    onProgress: (progress: P) => void,
    start: (forward: (progress: P) => void) => Promise<void>,
    workerId?: string,
  ): Promise<void> => {
    const key = `${kind}:${model.key}`;
    let entry = shared.get(key);
    if (!entry) {
      const listeners = new Set<(progress: never) => void>();
      const promise = start((progress) => listeners.forEach((listener) => (listener as (progress: P) => void)(progress))).finally(() => shared.delete(key));
      entry = workerId === undefined ? { promise, listeners } : { promise, listeners, workerId };
      shared.set(key, entry);
    }
    const listener = onProgress as (progress: never) => void;
    entry.listeners.add(listener);
    return entry.promise.finally(() => entry.listeners.delete(listener));
  };

  return {
    probe: () => call<DeviceCapabilities>((remote) => remote.probe()),
    cacheStatus: (model) => call<CacheStatus>((remote) => remote.cacheStatus(model)),
    download: (id, model, onProgress) => {
      // A download shared by several callers runs in the worker under the first caller's id.
      const workerId = shared.get(`download:${model.key}`)?.workerId ?? id;
      downloadIds.set(id, workerId);
      return share<DownloadProgress>("download", model, onProgress, (forward) => call((remote) => remote.download(id, model, Comlink.proxy(forward))), id).finally(() =>
        downloadIds.delete(id),
      );
    },
    load: (model, onProgress) =>
      share<LoadProgress>("load", model, onProgress, (forward) =>
        call((remote) => remote.load(model, Comlink.proxy(forward))).catch((error: unknown) => {
          // transformers.js 4.3 creates every ONNX session on one promise chain (`webInitChain`):
          // once a creation rejects, every later one in that worker rejects with the same error,
          // even for a good copy. So a load the engine tried and failed ends the worker; the next call starts a fresh one.
          const { code, reason } = error as { code?: string; reason?: string };
          if (code === "load_failed" || reason === "damaged") connection?.kill("a model failed to load");
          throw error;
        }),
      ),
    generate: (request: StepRequest, onEvent: (event: EngineEvent) => void) =>
      call(
        (_remote, current) =>
          new Promise<void>((resolve, reject) => {
            // The request crosses as one message on the connection's port; its events, a frame's
            // worth to a message (coalesce-events.ts), then its end, come back on the same port.
            const key = ++generationKeys;
            current.generations.set(key, {
              onEvent,
              settle: (error) => {
                current.generations.delete(key);
                if (error === undefined) resolve();
                else reject(error);
              },
            });
            current.port.postMessage({ key, request } satisfies GenerationCall);
          }),
      ),
    cancel: async (id) => {
      // A download shared by several callers runs under the first caller's id.
      const target = downloadIds.get(id) ?? id;
      if (connection) await call((remote) => remote.cancel(target));
    },
    deleteModel: (model) => call((remote) => remote.deleteModel(model)),
    terminate: () => connection?.kill("terminated"),
  };
}
