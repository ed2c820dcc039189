import { EngineError } from "./engine-error.js";
import { absoluteBaseUrl, MODEL_CACHE_NAME } from "./model-file-url.js";
import type { ModelSource } from "./protocol.js";
import { RUNS_IN_NODE } from "./runs-in-node.js";
import type { TransformersEngineOptions } from "./transformers-engine.js";
import { wasmThreadsFor } from "./wasm-threads.js";

type TransformersEnv = typeof import("@huggingface/transformers")["env"];

/**
 * Points transformers.js's `env` at our files for `model`, never at the hub
 * or a CDN: a local folder in Node tests, else the Cache API entries the
 * download wrote, and ONNX Runtime's wasm files served by the site (kept in
 * the model cache and started from a `blob:` URL where `cacheWasmFiles`).
 * Returns the WASM thread count this worker runs (`threads` once one is set:
 * ONNX Runtime starts its wasm once per worker).
 */
export function configureTransformers(env: TransformersEnv, model: ModelSource, options: TransformersEngineOptions, threads: number | undefined, cacheWasmFiles = true): number | undefined {
  if (options.localModelPath !== undefined) {
    env.allowLocalModels = true;
    env.allowRemoteModels = false;
    env.localModelPath = options.localModelPath;
    env.useBrowserCache = false;
    env.useFSCache = false;
    return threads;
  }
  // The files are in our Cache API cache under `${baseUrl}/${repo}/resolve/${revision}/${path}`;
  // transformers.js looks a file up there under its remote URL, built from
  // these two settings, before it would fetch (and fetching is off).
  // transformers.js refuses both sources off, and `local_files_only` needs
  // local models on. It checks the cache before either source; a miss (an
  // optional file the manifest lacks) falls to `localModelPath` on the
  // site, never to the hub.
  env.allowLocalModels = true;
  env.allowRemoteModels = false;
  env.localModelPath = `${absoluteBaseUrl(model.baseUrl)}/`;
  env.useBrowserCache = true;
  env.useFSCache = false;
  env.cacheKey = options.cacheName ?? MODEL_CACHE_NAME;
  env.remoteHost = `${absoluteBaseUrl(model.baseUrl)}/`;
  env.remotePathTemplate = "{model}/resolve/{revision}/";
  const wasm = env.backends.onnx.wasm;
  if (!RUNS_IN_NODE && wasm) {
    if (!options.wasmPaths) {
      throw new EngineError({ code: "load_failed", message: "ONNX Runtime's wasm files are not configured: pass wasmPaths served by this site." });
    }
    // The object form (not a prefix string) is what transformers.js caches for offline loads.
    wasm.wasmPaths = { ...options.wasmPaths };
    env.useWasmCache = cacheWasmFiles;
    // Read once, when ONNX Runtime starts its wasm: the first model's count holds for this worker.
    const count = threads ?? wasmThreadsFor(model.threads, (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated === true);
    wasm.numThreads = count;
    return count;
  }
  return threads;
}
