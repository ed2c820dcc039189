import { defineConfig } from "vite";

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
  // The engine worker ships as its own module with its dependencies (and
  // ONNX Runtime's wasm files, imported with ?url) left for the site's
  // bundler to resolve, as the main entries do: bundling transformers.js
  // into the library would ship a second copy of it, wasm inlined.
  worker: {
    format: "es",
    rollupOptions: { external: isDependency },
  },
});
