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

/** Each way load-default-engine.ts starts the engine worker: its source, a placeholder, and the literal the package ships. */
const SPAWNS = [
  {
    source: 'new Worker(new URL("../../../worker/engine-worker.ts", import.meta.url), { type: "module" })',
    placeholder: "__webAgentsSpawnEngineWorker__()",
    packaged: (path: string) => `new Worker(new URL(${JSON.stringify(path)}, import.meta.url), { type: "module" })`,
  },
  {
    source: 'new SharedWorker(new URL("../../../worker/engine-worker.ts", import.meta.url), { type: "module", name: "web-agents-engine", extendedLifetime: true })',
    placeholder: "__webAgentsSpawnSharedEngineWorker__()",
    packaged: (path: string) => `new SharedWorker(new URL(${JSON.stringify(path)}, import.meta.url), { type: "module", name: "web-agents-engine", extendedLifetime: true })`,
  },
];

/**
 * The engine worker is built apart (`vite.worker.config.ts`, self-contained,
 * into `dist/worker/`), so the library only has to start it, with the one
 * form every bundler recognises as a worker: a literal
 * `new Worker(new URL("./worker/engine-worker.js", import.meta.url), { type: "module" })`,
 * and its `new SharedWorker(…)` twin for `worker.shared`.
 * Vite's library build would rewrite that literal into a nested
 * `new URL(new URL(…).href, …)` no bundler follows (the worker then dies in
 * a site's production build), so the source's spawns are swapped for
 * placeholders before Vite sees them, and the placeholders for the literals after
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
      for (const spawn of SPAWNS) {
        if (!code.includes(spawn.source)) this.error(`load-default-engine.ts no longer contains ${spawn.source}; update vite.config.ts.`);
        code = code.replace(spawn.source, spawn.placeholder);
      }
      return { code, map: null };
    },
    renderChunk(code, chunk) {
      if (!SPAWNS.some((spawn) => code.includes(spawn.placeholder))) return null;
      replaced += 1;
      let path = posix.relative(posix.dirname(chunk.fileName), "worker/engine-worker.js");
      if (!path.startsWith(".")) path = `./${path}`;
      for (const spawn of SPAWNS) code = code.replaceAll(spawn.placeholder, spawn.packaged(path));
      return { code, map: null };
    },
    generateBundle() {
      if (replaced === 0) this.error("No chunk starts the engine worker: the on-device adapter would have no worker.");
    },
  };
}
