import { posix } from "node:path";
import { defineConfig, type Plugin } from "vite";

const isDependency = (id: string) => !id.startsWith(".") && !id.startsWith("/") && !id.startsWith("\0");

/**
 * The library build: one ES module per public entry. Dependencies stay
 * external so the site's bundler shares them with the page (and dedupes
 * React); `.d.ts` files come from `tsc -p tsconfig.build.json`.
 */
export default defineConfig({
  // The published JSX must use React's production runtime whatever NODE_ENV
  // the build runs under (vitest sets "test", which picks jsx-dev-runtime).
  oxc: { jsx: { runtime: "automatic", development: false } },
  // Relative: the worker's URL must resolve next to dist/index.js wherever a
  // site's bundler puts the package, not at the site's root.
  base: "./",
  build: {
    outDir: "dist",
    emptyOutDir: true,
    sourcemap: true,
    target: "es2022",
    lib: {
      formats: ["es"],
      entry: {
        index: "widget/index.ts",
        runtime: "runtime/index.ts",
        agent: "runtime/agent/index.ts",
        core: "runtime/core/index.ts",
        server: "runtime/server/index.ts",
        testing: "runtime/testing/index.ts",
      },
    },
    rollupOptions: {
      external: isDependency,
    },
  },
  plugins: [packagedEngineWorker()],
});

const WORKER_SPAWN = 'new Worker(new URL("../../../worker/engine-worker.ts", import.meta.url), { type: "module" })';
const PLACEHOLDER = "__webAgentsSpawnEngineWorker__()";

/**
 * The engine worker is built apart (`vite.worker.config.ts`, self-contained,
 * into `dist/worker/`), so the library only has to start it, with the one
 * form every bundler recognises as a worker: a literal
 * `new Worker(new URL("./worker/engine-worker.js", import.meta.url), { type: "module" })`.
 * Vite's library build would rewrite that literal into a nested
 * `new URL(new URL(…).href, …)` no bundler follows (the worker then dies in
 * a site's production build), so the source's spawn is swapped for a
 * placeholder before Vite sees it, and the placeholder for the literal after
 * the chunk is rendered, relative to wherever the chunk landed.
 */
export function packagedEngineWorker(): Plugin {
  let replaced = 0;
  return {
    name: "web-agents-packaged-engine-worker",
    enforce: "pre",
    buildStart() {
      replaced = 0;
    },
    transform(code, id) {
      if (!id.endsWith("/runtime/adapters/local/load-default-engine.ts")) return null;
      if (!code.includes(WORKER_SPAWN)) this.error(`load-default-engine.ts no longer contains ${WORKER_SPAWN}; update vite.config.ts.`);
      return { code: code.replace(WORKER_SPAWN, PLACEHOLDER), map: null };
    },
    renderChunk(code, chunk) {
      if (!code.includes(PLACEHOLDER)) return null;
      replaced += 1;
      let path = posix.relative(posix.dirname(chunk.fileName), "worker/engine-worker.js");
      if (!path.startsWith(".")) path = `./${path}`;
      return { code: code.replaceAll(PLACEHOLDER, `new Worker(new URL(${JSON.stringify(path)}, import.meta.url), { type: "module" })`), map: null };
    },
    generateBundle() {
      if (replaced === 0) this.error("No chunk starts the engine worker: the on-device adapter would have no worker.");
    },
  };
}
