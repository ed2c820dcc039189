import { defineConfig } from "vite";
import { packagedEngineWorker } from "./vite.config.js";

/**
 * The `./element` entry (`dist/element.js`), built apart from the library:
 * a page with no bundler cannot resolve `react`, so this one file brings
 * React and react-dom with it (in their production builds), while the other
 * entries keep them external for the site's bundler to share. Only
 * `dist/element.js` and its lazy chunks (`dist/element-chunks/`) are
 * written; it starts the same `dist/worker/engine-worker.js`.
 */
export default defineConfig({
  oxc: { jsx: { runtime: "automatic", development: false } },
  define: { "process.env.NODE_ENV": JSON.stringify("production") },
  base: "./",
  build: {
    outDir: "dist",
    emptyOutDir: false,
    sourcemap: true,
    target: "es2022",
    lib: { formats: ["es"], entry: { element: "widget/element/index.ts" } },
    // Vite keeps an ES library unminified (for the site's bundler to tree-shake); this file is the end product.
    rollupOptions: { output: { chunkFileNames: "element-chunks/[name]-[hash].js", minify: true } },
  },
  plugins: [packagedEngineWorker()],
});
