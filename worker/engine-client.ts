import * as Comlink from "comlink";
import { findViolation, policyBlockOf, watchPolicyViolations } from "../runtime/errors/policy-violations.js";
import { EngineError, isEngineErrorData } from "./engine-error.js";
import { policyBlockMessage } from "./engine-error-messages.js";
import type { CacheStatus, DeviceCapabilities, EngineEvent, EngineHost, GenerationCall, GenerationReply, StepRequest, WiredEngineHost } from "./protocol.js";

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
  /** {@link EngineHost.onStopped}: a worker client always has it. */
  onStopped(listener: () => void): () => void;
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
  kill: (reason: string, error?: EngineError) => void;
}

/**
 * Talks to the engine host in a worker through comlink. Errors arrive as
 * data and are rethrown as {@link EngineError}; a worker that dies (`error`
 * event, or `terminate`) fails the calls in flight with `worker_died`, and
 * the next call starts a new worker, which loads the model from the cache
 * again because every request names its model. Each call goes to the worker
 * as it is: concurrent `prepare` calls are shared once, above the engine, by
 * the adapter's `SharedPreparation` (runtime/adapters/shared-preparation.ts),
 * and every local adapter's default engine is a client of its own.
 */
export function createEngineClient(options: EngineClientOptions): EngineClient {
  // The page's violations, for a worker its policy refuses (no document in a test's Node: nothing to watch).
  watchPolicyViolations((globalThis as { document?: EventTarget }).document);
  let connection: Connection | undefined;
  let generationKeys = 0;
  // Told when the worker stops on its own: not for terminate() or a load this client saw fail.
  const stoppedListeners = new Set<() => void>();

  const connect = (): Connection => {
    if (connection) return connection;
    const spawned = performance.now();
    const worker = options.spawn();
    let kill!: (reason: string, error?: EngineError) => void;
    const died = new Promise<never>((_, reject) => {
      kill = (reason, error) => reject(error ?? new EngineError({ code: "worker_died", message: `The model worker stopped (${reason}). Try again: it restarts and reloads the model from this device.` }));
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
    current.kill = (reason, error) => {
      if (connection === current) connection = undefined;
      port1.close();
      current.remote[Comlink.releaseProxy]();
      worker.terminate();
      kill(reason, error);
    };
    worker.addEventListener("error", (event) => {
      const message = (event as ErrorEvent).message || "it crashed";
      // A worker the page's Content-Security-Policy refused (worker-src, script-src) fires a bare error: its violation says why.
      void findViolation((seen) => seen.directive === "worker-src" || seen.directive.startsWith("script-src"), spawned).then((violation) => {
        const blocked = violation && policyBlockOf(violation);
        const live = connection === current;
        current.kill(message, blocked ? new EngineError({ code: "unsupported_device", reason: "blocked_by_policy", ...blocked, message: policyBlockMessage(blocked) }) : undefined);
        if (live && !blocked) for (const listener of [...stoppedListeners]) listener();
      });
    });
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

  return {
    probe: () => call<DeviceCapabilities>((remote) => remote.probe()),
    cacheStatus: (model) => call<CacheStatus>((remote) => remote.cacheStatus(model)),
    download: (id, model, onProgress) => call((remote) => remote.download(id, model, Comlink.proxy(onProgress))),
    load: (model, onProgress) =>
      call((remote) => remote.load(model, Comlink.proxy(onProgress))).catch((error: unknown) => {
        // transformers.js 4.3 creates every ONNX session on one promise chain (`webInitChain`):
        // once a creation rejects, every later one in that worker rejects with the same error,
        // even for a good copy. So a load the engine tried and failed ends the worker; the next call starts a fresh one.
        const { code, reason } = error as { code?: string; reason?: string };
        if (code === "load_failed" || reason === "damaged") connection?.kill("a model failed to load");
        throw error;
      }),
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
      if (!connection) return;
      // A generation's cancel follows its request on the same port, so it cannot arrive first; a download's goes by comlink.
      connection.port.postMessage({ cancel: id } satisfies GenerationCall);
      await call((remote) => remote.cancel(id));
    },
    deleteModel: (model) => call((remote) => remote.deleteModel(model)),
    terminate: () => connection?.kill("terminated"),
    onStopped(listener) {
      stoppedListeners.add(listener);
      return () => stoppedListeners.delete(listener);
    },
  };
}
