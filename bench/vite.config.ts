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
  // The zero-cost path renders <AgentChat> as a site ships it: React's production build, JSX
  // with the automatic runtime, React (CommonJS) pre-bundled.
  // Its own pre-bundled React (production), apart from the examples' and tests' (development).
  cacheDir: fileURLToPath(new URL("../.cache/vite-bench/", import.meta.url)),
  define: { "process.env.NODE_ENV": JSON.stringify("production") },
  oxc: { jsx: { runtime: "automatic", importSource: "react", development: false } },
  optimizeDeps: {
    noDiscovery: true,
    include: ["react", "react/jsx-runtime", "react-dom", "react-dom/client"],
    // The pre-bundler takes NODE_ENV from here, not from `define`.
    rolldownOptions: { transform: { define: { "process.env.NODE_ENV": JSON.stringify("production") } } },
  },
  // The runtime path imports the package by name, as a site does: mapped to the source.
  resolve: { alias: packageAliases() },
  worker: { format: "es" },
});
