import { defineConfig, type Plugin } from "vite";

/**
 * The engine worker, pre-bundled: `dist/worker/engine-worker.js` with
 * transformers.js, onnxruntime-web's JS, web-llm (a lazy chunk), comlink,
 * idb-keyval and @noble/hashes inside, and ONNX Runtime's `.mjs` + `.wasm`
 * beside it. A site's bundler gets a self-contained module worker that
 * refers to its files only as `new URL("./file", import.meta.url)`, the form
 * Vite, webpack 5, Rollup and esbuild all recognise and copy; so the engines
 * need not be install-time dependencies of the site (no onnxruntime-node,
 * no sharp) and no bundler configuration is needed.
 *
 * Runs after the library build (`npm run build`), which starts this file
 * with `new Worker(new URL("./worker/engine-worker.js", import.meta.url))`.
 */
export default defineConfig({
  base: "./",
  // The worker has no DOM: no modulepreload helper, no `document` in a chunk.
  build: {
    outDir: "dist/worker",
    emptyOutDir: true,
    target: "es2022",
    sourcemap: false,
    modulePreload: false,
    // ONNX Runtime's .mjs is loaded with import(url) and spawns its own threads from that URL:
    // it must stay a file, never a data: URL.
    assetsInlineLimit: 0,
    copyPublicDir: false,
    reportCompressedSize: false,
    // transformers.js and web-llm are large by nature; they load only when a person picks an on-device model.
    chunkSizeWarningLimit: 8000,
    rollupOptions: {
      input: { "engine-worker": "worker/engine-worker.ts" },
      output: {
        format: "es",
        entryFileNames: "[name].js",
        chunkFileNames: "[name]-[hash].js",
        assetFileNames: "[name]-[hash][extname]",
      },
    },
  },
  plugins: [relativeAssetUrls()],
});

/**
 * Every `new URL("…", import.meta.url)` in the worker's chunks, the form a
 * site's bundler copies as an asset, made safe for every bundler:
 * - Vite writes a relative URL without `./`, which webpack reads as a
 *   package name: each gets its `./`.
 * - onnxruntime-web names `ort.webgpu.bundle.min.mjs` on a branch taken only
 *   when the worker runs from a `file:` URL (Node); the file is not shipped,
 *   and webpack fails a build on a missing `new URL` target (it even follows
 *   `let e = URL; new e(…)`). Such a URL is rewritten against
 *   `self.location.href`, which no bundler follows.
 * The build fails if a target is neither emitted nor on that list. And an
 * `import(url)` of a computed URL keeps the comments that tell webpack and
 * Vite to leave it to the browser.
 */
function relativeAssetUrls(): Plugin {
  const pattern = /new URL\((["'`])([^"'`]+)\1,\s*import\.meta\.url\)/g;
  const notShipped = new Set(["ort.webgpu.bundle.min.mjs"]);
  const notShippedPattern = new RegExp(`(["'\`])(${[...notShipped].map((name) => name.replaceAll(".", "\\.")).join("|")})\\1\\s*,\\s*import\\.meta\\.url`, "g");
  return {
    name: "web-agents-relative-asset-urls",
    generateBundle(_options, bundle) {
      const emitted = new Set(Object.keys(bundle));
      for (const output of Object.values(bundle)) {
        if (output.type !== "chunk") continue;
        output.code = output.code
          .replace(pattern, (whole, quote: string, target: string) => {
            const name = target.replace(/^\.\//, "");
            if (emitted.has(name)) return `new URL(${quote}./${name}${quote}, import.meta.url)`;
            if (notShipped.has(name)) return `new URL(${quote}${name}${quote}, self.location.href)`;
            this.error(`${output.fileName} refers to ${target}, which the worker build does not emit: a site's bundler would fail on it.`);
          })
          // ORT also writes `let e = URL; new e("ort.webgpu.bundle.min.mjs", import.meta.url)`
          // (Node only); webpack follows the rename and fails on the missing file.
          .replace(notShippedPattern, (_whole, quote: string, name: string) => `${quote}${name}${quote}, self.location.href`)
          // ONNX Runtime imports its glue from a URL (a blob: URL, as transformers.js caches it).
          // Minifying dropped the source's magic comments; without them webpack turns
          // import(url) into a lookup in its own module map ("Cannot find module 'blob:…'").
          .replace(/\bimport\((?=\s*[A-Za-z_$])/g, "import(/* webpackIgnore: true */ /* @vite-ignore */ ");
      }
    },
  };
}
