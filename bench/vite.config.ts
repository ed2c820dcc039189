import { fileURLToPath } from "node:url";
import { defineConfig, type Plugin } from "vite";
import { CROSS_ORIGIN_ISOLATION_HEADERS } from "../runtime/test-support/cross-origin-isolation.js";
import { packageAliases } from "../examples/package-aliases.js";
import { benchModelFiles } from "./model-files-plugin.js";

const repoRoot = fileURLToPath(new URL("..", import.meta.url));
const modelsRoot = fileURLToPath(new URL("../.cache/models/", import.meta.url));

/**
 * Prints the page's address once the server listens: the config logs at
 * "warn" (no Vite banner), and `npm run bench:serve` printed nothing at all.
 */
function printUrl(): Plugin {
  return {
    name: "bench-print-url",
    configureServer(server) {
      server.httpServer?.once("listening", () => {
        const address = server.httpServer?.address();
        if (!address || typeof address === "string") return;
        console.log(`\n  @webmcp-agents/chat bench: http://${server.config.server.host ?? "localhost"}:${address.port}/\n`);
      });
    },
  };
}

/**
 * The bench pages (`npm run bench:serve`, and `npm run bench` starts it
 * itself): bench/index.html, with the built test models from `.cache/models`
 * served at `/models/test/<id>/resolve/main/…`. Cross-origin isolated (COOP/COEP),
 * as a site's page must be for ONNX Runtime to run WASM threads.
 */
export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),
  plugins: [benchModelFiles(modelsRoot), printUrl()],
  logLevel: "warn",
  server: { host: "127.0.0.1", port: 5174, fs: { allow: [repoRoot] }, hmr: false, headers: { ...CROSS_ORIGIN_ISOLATION_HEADERS } },
  optimizeDeps: { noDiscovery: true, include: [] },
  // The runtime path imports the package by name, as a site does: mapped to the source.
  resolve: { alias: packageAliases() },
  worker: { format: "es" },
});
