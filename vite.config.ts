import { defineConfig } from "vite";

/**
 * The library build: one ES module per public entry. Dependencies stay
 * external so the site's bundler shares them with the page (and dedupes
 * React); `.d.ts` files come from `tsc -p tsconfig.build.json`.
 */
export default defineConfig({
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
      external: (id) => !id.startsWith(".") && !id.startsWith("/") && !id.startsWith("\0"),
    },
  },
});
