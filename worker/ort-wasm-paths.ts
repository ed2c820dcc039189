/// <reference types="vite/client" />
// ONNX Runtime's wasm build that transformers.js 4.3 uses by default (asyncify:
// both the WASM and the WebGPU execution providers), served by the site's
// bundler from the pinned onnxruntime-web, never from a CDN.
import mjs from "onnxruntime-web/ort-wasm-simd-threaded.asyncify.mjs?url";
import wasm from "onnxruntime-web/ort-wasm-simd-threaded.asyncify.wasm?url";

/** URLs of ONNX Runtime's wasm files on this site, for `TransformersEngineOptions.wasmPaths`. */
export const ORT_WASM_PATHS: { mjs: string; wasm: string } = {
  mjs: new URL(mjs, self.location.href).href,
  wasm: new URL(wasm, self.location.href).href,
};
