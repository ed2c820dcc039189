import { probeCapabilities } from "./capability-probe.js";
import { isDamagedCopyError } from "./damaged-copy.js";
import { EngineError, toEngineError } from "./engine-error.js";
import { modelEngineError } from "./engine-error-messages.js";
import { findViolation, policyBlockOf } from "../runtime/errors/policy-violations.js";
import type { ModelEngine } from "./model-engine.js";
import type { ModelStore } from "./model-cache.js";
import type { DeviceCapabilities, EngineHost, EngineKind, ModelSource } from "./protocol.js";
import { readWithFormat, stepPrompt } from "./step-format.js";

/** Options for {@link createEngineHost}. */
export interface EngineHostOptions {
  /** Engine factories by kind, called on first use (so an unused engine's library never loads). */
  engines: Partial<Record<EngineKind, () => ModelEngine>>;
  /** Where downloaded models live (the worker uses `createModelCache()`). */
  store: ModelStore;
  /**
   * Whether `load` requires the store to report the model cached first
   * (default true). Off for engines reading a local folder (Node, tests).
   */
  requireCached?: boolean;
  /** Default {@link probeCapabilities}. */
  probe?: () => Promise<DeviceCapabilities>;
}

/**
 * The engine host, inside the worker: picks the engine each request names,
 * keeps downloads and models in the store, and maps `cancel(id)` to the
 * download or generation with that id. Rejects only with `EngineError`.
 */
export function createEngineHost(options: EngineHostOptions): EngineHost {
  const engines = new Map<EngineKind, ModelEngine>();
  const running = new Map<string, AbortController>();
  const requireCached = options.requireCached ?? true;

  const engineFor = (model: ModelSource): ModelEngine => {
    let engine = engines.get(model.engine);
    if (!engine) {
      const create = options.engines[model.engine];
      if (!create) throw new EngineError({ code: "unsupported_device", message: `This build has no ${model.engine} engine.` });
      engine = create();
      engines.set(model.engine, engine);
    }
    return engine;
  };

  const track = async <T>(id: string, task: (signal: AbortSignal) => Promise<T>): Promise<T> => {
    const controller = new AbortController();
    running.get(id)?.abort();
    running.set(id, controller);
    try {
      return await task(controller.signal);
    } finally {
      if (running.get(id) === controller) running.delete(id);
    }
  };

  const guard = <T>(fallback: EngineError["code"], task: () => Promise<T>): Promise<T> =>
    task().catch((error: unknown) => {
      throw toEngineError(error, fallback);
    });

  return {
    probe: () => guard("unsupported_device", options.probe ?? probeCapabilities),
    cacheStatus: (model) =>
      guard("load_failed", async () => {
        const engine = engineFor(model);
        return engine.cacheStatus ? engine.cacheStatus(model) : options.store.cacheStatus(model);
      }),
    download: (id, model, onProgress) =>
      guard("download_failed", () =>
        track(id, (signal) => {
          const engine = engineFor(model);
          return engine.download ? engine.download(model, onProgress, signal) : options.store.download(model, onProgress, signal);
        }),
      ),
    load: (model, onProgress) =>
      guard("load_failed", async () => {
        const engine = engineFor(model);
        // Models in our store: files the browser evicted are found here, before the engine reads any.
        // A model the engine holds reads no file, so its load waits on no check.
        const stored = requireCached && !engine.download && !engine.holds?.(model);
        if (stored) {
          const status = await options.store.cacheStatus(model);
          if (!status.cached) {
            const reason = status.removed ?? (status.outdated ? "outdated" : undefined);
            throw modelEngineError({ code: "not_cached", ...(reason && { reason }) }, model);
          }
        }
        const started = performance.now();
        try {
          await engine.load(model, onProgress);
        } catch (error) {
          const detail = error instanceof Error ? error.message : String(error);
          if (stored && isDamagedCopyError(error)) {
            // A copy that cannot be read never stays "cached": remove it, so the next prepare downloads it again.
            await options.store.deleteModel(model).catch(() => {});
            throw modelEngineError({ code: "not_cached", reason: "damaged", detail }, model, error);
          }
          if (EngineError.isInstance(error) && error.code !== "load_failed") throw error;
          // A script, worker or WebAssembly the worker's Content-Security-Policy refused: say what the site must allow.
          const violation = await findViolation((seen) => policyBlockOf(seen) !== undefined && seen.directive !== "connect-src", started);
          const blocked = violation && policyBlockOf(violation);
          if (blocked) throw modelEngineError({ code: "load_failed", reason: "blocked_by_policy", ...blocked, detail }, model, error);
          throw modelEngineError({ code: "load_failed", reason: "engine_failed", detail }, model, error);
        }
      }),
    generate: (step, onEvent) =>
      guard("generation_failed", () => {
        const request = stepPrompt(step);
        return track(request.id, (signal) => engineFor(request.model).generate(request, readWithFormat(request, onEvent), signal));
      }),
    cancel: async (id) => {
      running.get(id)?.abort();
    },
    deleteModel: (model) =>
      guard("load_failed", async () => {
        const engine = engineFor(model);
        await (engine.deleteModel ? engine.deleteModel(model) : options.store.deleteModel(model));
      }),
  };
}
