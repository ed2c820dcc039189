import type { ModelFormatId } from "./model-format.js";

/*
 * What a model variant is to the engine that fetches, caches and loads it:
 * the catalog resolves to it (`resolve-variant.ts`) and the worker's
 * protocol carries it (`worker/protocol.ts` re-exports these), so the types
 * live here and the arrow runs one way, from the worker to models/.
 */

/** Which engine runs a model. */
export type EngineKind = "transformers" | "web-llm";

/** Where it runs. */
export type EngineDevice = "webgpu" | "wasm";

/** One file of a model, as the catalog or a manifest knows it. */
export interface ModelFile {
  /** Path inside the repo, e.g. `onnx/model_q4f16.onnx`. */
  path: string;
  /** Size in bytes, when known before the download. */
  bytes?: number;
  /** Hex sha256, when known (checked after the download). */
  sha256?: string;
  /**
   * `bytes` is the file's exact size, enforced like a sha256 (a response of
   * another size is rejected). Default: exact only when `sha256` is set;
   * otherwise `bytes` is an estimate for the quota check and the progress bar.
   */
  exactBytes?: boolean;
}

/** Everything an engine needs to fetch, cache and load one model variant. */
export interface ModelSource {
  /** Catalog id plus variant, stable across releases: `qwen3-0.6b/webgpu-q4f16`. */
  key: string;
  engine: EngineKind;
  device: EngineDevice;
  /** transformers.js dtype (`q4f16`, `q8`, `fp32`…) or the MLC quantization (`q4f16_1`). */
  dtype: string;
  /** `onnx-community/Qwen3-0.6B-ONNX`, or the MLC model id `Qwen3-0.6B-q4f16_1-MLC`. */
  repo: string;
  /**
   * The repo's commit (or branch) the files are fetched at. Default `"main"`.
   * Part of every file's URL and cache key (`model-file-url.ts`).
   */
  revision?: string;
  /** Where files are fetched from: `${baseUrl}/${repo}/resolve/${revision}/${path}`. The site may serve its own copy. */
  baseUrl: string;
  /**
   * The files to download; for web-llm, the engine's own list is used and this
   * may be empty. For transformers.js it is also what the engine opens: each
   * graph's `_data` chunks listed here, and no others.
   */
  files: ModelFile[];
  /**
   * The family's prompt and tool-call format (`models/model-formats.ts`): the
   * worker renders the prompt and reads the output with it. Default `"qwen3"`.
   */
  format?: ModelFormatId;
  /**
   * ONNX Runtime's WASM threads (transformers.js: the CPU path, and the CPU
   * ops under WebGPU; web-llm ignores it). More than one runs only where the
   * worker is cross-origin isolated; elsewhere the engine runs one, whatever
   * this says. Fixed per worker: ONNX Runtime starts its wasm once, with the
   * count of the first model loaded, and a later load asking another count
   * runs on that first count (the usage's `threads` says which); only a new
   * worker changes it. Default 1. `createLocalAdapter` sets it (its `threads`).
   */
  threads?: number;
}
