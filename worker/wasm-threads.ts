import type { DeviceCapabilities } from "./protocol.js";

/** The most threads the default asks for: past four, decode gains little (it is bound by memory bandwidth). */
const MAX_DEFAULT_THREADS = 4;

/**
 * How many ONNX Runtime WASM threads a model gets by default: `min(4, cores
 * - 1)`, at least 1, where the page is cross-origin isolated (one core is
 * left to the page's main thread), else 1 (threads need SharedArrayBuffer,
 * which only an isolated page has).
 */
export function defaultWasmThreads(capabilities: Pick<DeviceCapabilities, "cores" | "crossOriginIsolated">): number {
  if (!capabilities.crossOriginIsolated) return 1;
  return Math.max(1, Math.min(MAX_DEFAULT_THREADS, Math.floor(capabilities.cores) - 1));
}

/**
 * The threads ONNX Runtime is asked for: `requested` (default 1) as a whole
 * number of at least 1, and 1 where the worker is not cross-origin isolated
 * (ONNX Runtime would fall back to one itself, with two console warnings).
 */
export function wasmThreadsFor(requested: number | undefined, crossOriginIsolated: boolean): number {
  if (!crossOriginIsolated || requested === undefined || !Number.isFinite(requested)) return 1;
  return Math.max(1, Math.floor(requested));
}
