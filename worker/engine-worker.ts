/// <reference lib="webworker" />
/**
 * The module worker entry: the engine host with both engines, exposed with
 * comlink on `self`. Start it from the main thread with
 * `createEngineClient({ spawn: () => new Worker(new URL("./engine-worker.ts", import.meta.url), { type: "module" }) })`.
 * The engines' libraries load only when a model of their kind is first used.
 * @module
 */
import { createEngineHost } from "./engine-host.js";
import { exposeEngineHost } from "./expose-engine-host.js";
import { createModelCache } from "./model-cache.js";
import { ORT_WASM_PATHS } from "./ort-wasm-paths.js";
import { watchPolicyViolations } from "../runtime/errors/policy-violations.js";
import { TransformersEngine } from "./transformers-engine.js";
import { WebLlmEngine } from "./web-llm-engine.js";
import { workerAllowsBlobScripts } from "./worker-policy.js";

// A part the worker's Content-Security-Policy blocks is told apart from a broken one by its violation (policy-violations.ts).
watchPolicyViolations();

exposeEngineHost(
  createEngineHost({
    engines: {
      transformers: () => new TransformersEngine({ wasmPaths: ORT_WASM_PATHS, cacheWasmFiles: workerAllowsBlobScripts }),
      "web-llm": () => new WebLlmEngine(),
    },
    store: createModelCache(),
  }),
);
