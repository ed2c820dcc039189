import type { Plugin } from "vite";

/**
 * The response headers that make a page cross-origin isolated, which ONNX
 * Runtime's WASM threads need (SharedArrayBuffer). COEP `require-corp` asks
 * every cross-origin resource for CORS or a `Cross-Origin-Resource-Policy`;
 * the test pages and the bench load nothing cross-origin but `fetch` (CORS).
 */
export const CROSS_ORIGIN_ISOLATION_HEADERS: Readonly<Record<string, string>> = {
  "Cross-Origin-Opener-Policy": "same-origin",
  "Cross-Origin-Embedder-Policy": "require-corp",
};

/**
 * Sends {@link CROSS_ORIGIN_ISOLATION_HEADERS} with what a Vite server serves
 * itself (pages, modules, workers). Responses from other plugins' middleware
 * go without them, which is fine for same-origin files.
 */
export function crossOriginIsolation(): Plugin {
  return {
    name: "web-agents-cross-origin-isolation",
    config: () => ({ server: { headers: { ...CROSS_ORIGIN_ISOLATION_HEADERS } }, preview: { headers: { ...CROSS_ORIGIN_ISOLATION_HEADERS } } }),
  };
}
