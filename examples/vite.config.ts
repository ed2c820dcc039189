import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";
import { chatRoute } from "./chat-route.js";

const root = fileURLToPath(new URL(".", import.meta.url));

/** `npm start`: the example pages and `/api/chat` on http://127.0.0.1:5173. */
export default defineConfig({
  root,
  plugins: [chatRoute()],
  // The examples import the package by name, as a site does.
  resolve: {
    alias: [
      { find: /^@webmcp-agents\/chat$/, replacement: fileURLToPath(new URL("../widget/index.ts", import.meta.url)) },
      { find: /^@webmcp-agents\/chat\/(agent|core|server|testing)$/, replacement: fileURLToPath(new URL("../runtime/$1/index.ts", import.meta.url)) },
    ],
  },
  server: { host: "127.0.0.1", port: 5173 },
  build: {
    outDir: fileURLToPath(new URL("../dist-examples", import.meta.url)),
    emptyOutDir: true,
    rollupOptions: { input: { index: `${root}index.html`, runtime: `${root}runtime-demo/index.html` } },
  },
});
