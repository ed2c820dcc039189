import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";
import { CROSS_ORIGIN_ISOLATION_HEADERS } from "../runtime/test-support/cross-origin-isolation.js";
import { benchModelFiles } from "./model-files-plugin.js";

const repoRoot = fileURLToPath(new URL("..", import.meta.url));
const modelsRoot = fileURLToPath(new URL("../.cache/models/", import.meta.url));

/**
 * The bench pages (`npm run bench:serve`, and `npm run bench` starts it
 * itself): bench/index.html, with the built test models from `.cache/models`
 * served at `/models/test/<id>/resolve/main/…`. Cross-origin isolated (COOP/COEP),
 * as a site's page must be for ONNX Runtime to run WASM threads.
 */
export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),
  plugins: [benchModelFiles(modelsRoot)],
  logLevel: "warn",
  server: { host: "127.0.0.1", port: 5174, fs: { allow: [repoRoot] }, hmr: false, headers: { ...CROSS_ORIGIN_ISOLATION_HEADERS } },
  optimizeDeps: { noDiscovery: true, include: [] },
  worker: { format: "es" },
});
