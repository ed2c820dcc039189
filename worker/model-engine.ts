import type { CacheStatus, DownloadProgress, GenerateRequest, LoadProgress, ModelSource, RawEngineEvent } from "./protocol.js";

/**
 * One engine inside the worker (transformers.js or web-llm): it loads a model
 * and turns a prompt into streamed events. The engine host adds the probe,
 * the cache and `cancel` around it. Engines that manage their own files
 * (web-llm) also implement the optional cache methods, and the host uses
 * them instead of its own download and cache.
 */
export interface ModelEngine {
  /** Reads the model into memory (from the cache); resolves when it can generate. */
  load(model: ModelSource, onProgress: (progress: LoadProgress) => void, signal?: AbortSignal): Promise<void>;
  /**
   * Streams one generation's raw text (the host reads it with the model's
   * format), ending with exactly one `finish` event. An abort of
   * `signal` stops it promptly with `finish` reason `aborted`; other failures
   * reject with an `EngineError` (`generation_failed`).
   */
  generate(request: GenerateRequest, onEvent: (event: RawEngineEvent) => void, signal: AbortSignal): Promise<void>;
  /**
   * Whether `model` is in memory already, so `load` reads nothing: the host
   * then skips its check of the store (a shared worker's next page of the
   * site loads a model it holds).
   */
  holds?(model: ModelSource): boolean;
  /** Engines with their own cache (web-llm). */
  cacheStatus?(model: ModelSource): Promise<CacheStatus>;
  download?(model: ModelSource, onProgress: (progress: DownloadProgress) => void, signal: AbortSignal): Promise<void>;
  deleteModel?(model: ModelSource): Promise<void>;
}
