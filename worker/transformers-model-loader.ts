import { EngineError, toEngineError } from "./engine-error.js";
import { MODEL_CACHE_NAME } from "./model-file-url.js";
import { fixQwen35RopeDeltas } from "./fix-qwen35-rope.js";
import type { LoadProgress, ModelSource } from "./protocol.js";
import { cacheKind, type CacheKind } from "./prefix-cache.js";
import { loadProgressReporter } from "./load-progress.js";
import { configureTransformers } from "./configure-transformers.js";
import { RUNS_IN_NODE } from "./runs-in-node.js";
import { externalDataChunks } from "./external-data-chunks.js";
import { loadTokenizer, type Tokenizer } from "./load-tokenizer.js";
import { modelTextReader } from "./read-model-text.js";
import type { TransformersEngineOptions } from "./transformers-engine.js";

export type Transformers = typeof import("@huggingface/transformers");
type CausalModel = Awaited<ReturnType<Transformers["AutoModelForCausalLM"]["from_pretrained"]>>;

/** A model the transformers.js engine can generate with. */
export interface LoadedModel {
  key: string;
  tokenizer: Tokenizer;
  model: CausalModel;
  /** How its cache can be reused across steps (prefix-cache.ts). */
  cacheKind: CacheKind;
}

/**
 * transformers.js and the one model the transformers.js engine holds
 * (transformers-engine.ts): the tokenizer and the ONNX sessions read from
 * our files only, a load of the model in flight shared, and a new model
 * replacing the old, which is disposed after `onReplaced`.
 */
export class TransformersModelLoader {
  private transformers?: Promise<Transformers>;
  private loaded?: LoadedModel;
  private loading?: { key: string; promise: Promise<LoadedModel> };
  /**
   * ONNX Runtime's WASM threads: what the first load asked for, then what ONNX
   * Runtime started with once it has (it starts its wasm once per worker, and
   * writes back 1 where it cannot run threads). Browser only.
   */
  private threads?: number;
  /** The answer of `cacheWasmFiles`, asked once: ONNX Runtime starts its wasm once per worker. */
  private cacheWasmFiles?: Promise<boolean>;

  private readonly options: TransformersEngineOptions;
  private readonly onReplaced: () => void;

  constructor(options: TransformersEngineOptions, onReplaced: () => void) {
    this.options = options;
    this.onReplaced = onReplaced;
  }

  /** The WASM threads ONNX Runtime runs (see `threads`), for a generation's usage. */
  get wasmThreads(): number | undefined {
    return this.threads;
  }

  /** transformers.js, imported on first use. */
  library(): Promise<Transformers> {
    this.transformers ??= (this.options.importTransformers ?? (() => import("@huggingface/transformers")))();
    return this.transformers;
  }

  /** Points transformers.js at our files for `model`; never at the hub or a CDN (configure-transformers.ts). */
  private async configure(library: Transformers, model: ModelSource): Promise<void> {
    this.cacheWasmFiles ??= this.options.cacheWasmFiles?.() ?? Promise.resolve(true);
    this.threads = configureTransformers(library.env, model, this.options, this.threads, await this.cacheWasmFiles);
  }

  /** Whether the model with this key is the one held, ready to generate. */
  holds(key: string): boolean {
    return this.loaded?.key === key;
  }

  /** The model ready to generate: the one held, the load in flight of it, or a new load that replaces the one held. */
  async load(model: ModelSource, onProgress: (progress: LoadProgress) => void): Promise<LoadedModel> {
    if (this.loaded?.key === model.key) {
      onProgress({ progress: 1 });
      return this.loaded;
    }
    if (this.loading?.key === model.key) return this.loading.promise;
    const promise = this.read(model, onProgress);
    this.loading = { key: model.key, promise };
    try {
      const loaded = await promise;
      const previous = this.loaded;
      this.loaded = loaded;
      if (previous) {
        this.onReplaced();
        await previous.model.dispose().catch(() => {});
      }
      return loaded;
    } finally {
      if (this.loading?.promise === promise) this.loading = undefined;
    }
  }

  private async read(model: ModelSource, onProgress: (progress: LoadProgress) => void): Promise<LoadedModel> {
    if (model.engine !== "transformers") {
      throw new EngineError({ code: "load_failed", message: `The transformers.js engine cannot load a ${model.engine} model (${model.key}).` });
    }
    try {
      const library = await this.library();
      await this.configure(library, model);
      onProgress({ progress: 0 });
      const read = modelTextReader(model, {
        ...(this.options.localModelPath !== undefined && { localModelPath: this.options.localModelPath }),
        cacheName: this.options.cacheName ?? MODEL_CACHE_NAME,
      });
      const tokenizer = await loadTokenizer(library, read, model.key);
      onProgress({ progress: 0.1 });
      const device = model.device === "webgpu" ? "webgpu" : RUNS_IN_NODE ? "cpu" : "wasm";
      // A progress callback also makes transformers.js stream each file out of the cache:
      // without one it calls Response.arrayBuffer(), which Chromium refuses over 2 GB.
      const causal = await library.AutoModelForCausalLM.from_pretrained(model.repo, {
        device,
        dtype: model.dtype as never,
        revision: model.revision ?? "main",
        // The chunks the download list holds, whatever the repo's config.json declares (a source
        // with no list, a local folder in tests, leaves it to config.json).
        ...(model.files.length > 0 && { use_external_data_format: externalDataChunks(model.files) }),
        local_files_only: true,
        progress_callback: loadProgressReporter(model.files, onProgress),
      } as never);
      // The count ONNX Runtime started with (the session exists, so it has).
      const wasm = library.env.backends.onnx.wasm;
      if (!RUNS_IN_NODE && wasm && typeof wasm.numThreads === "number") this.threads = wasm.numThreads;
      onProgress({ progress: 1 });
      // transformers.js 4.3.2 feeds Qwen3.5's decode steps wrong positions (fix-qwen35-rope.ts).
      fixQwen35RopeDeltas(causal, library.Tensor as never);
      const sessions = (causal as unknown as { sessions?: Record<string, { inputNames?: string[] }> }).sessions ?? {};
      const decoder = sessions.decoder_model_merged ?? sessions.model;
      return { key: model.key, tokenizer, model: causal, cacheKind: cacheKind(decoder?.inputNames ?? []) };
    } catch (error) {
      if (EngineError.isInstance(error)) throw error;
      const engineError = toEngineError(error, "load_failed");
      throw new EngineError({ code: "load_failed", message: `Could not load ${model.key}: ${engineError.message}` }, { cause: error });
    }
  }
}
