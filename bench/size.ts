import { gzipSync } from "node:zlib";
import { fileURLToPath } from "node:url";
import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin } from "vite";

/**
 * `npm run size` (`vite build --config bench/size.ts`): builds
 * bench/size-page, a page with `<AgentChat>` on the default cloud adapter,
 * in production mode, and prints the gzip size of its JavaScript, React and
 * ReactDOM excluded (they stay external: the site already ships them). The
 * budget is 60 KB for what the first render loads; lazy chunks (loaded only
 * on use, such as `agent.invoke`'s loop) are listed apart. Nothing is
 * written to disk.
 */

/** KB (1,000 bytes) the first render may load, gzip, above React. */
const BUDGET_KB = 60;
const REACT = ["react", "react-dom", "react-dom/client", "react/jsx-runtime", "scheduler"];
const root = fileURLToPath(new URL("./size-page/", import.meta.url));
const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} KB`;

function reportSize(): Plugin {
  return {
    name: "report-size",
    apply: "build",
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((file) => file.type === "chunk");
      const gzip = new Map(chunks.map((chunk) => [chunk.fileName, gzipSync(chunk.code, { level: 9 }).length]));
      // What the entry loads before rendering: itself and its static imports, transitively.
      const initial = new Set<string>();
      const visit = (fileName: string) => {
        if (initial.has(fileName)) return;
        initial.add(fileName);
        const chunk = chunks.find((candidate) => candidate.fileName === fileName);
        chunk?.imports.filter((name) => gzip.has(name)).forEach(visit);
      };
      chunks.filter((chunk) => chunk.isEntry).forEach((chunk) => visit(chunk.fileName));
      const sum = (names: Iterable<string>) => [...names].reduce((total, name) => total + (gzip.get(name) ?? 0), 0);
      const lazy = chunks.map((chunk) => chunk.fileName).filter((name) => !initial.has(name));
      const first = sum(initial);
      // The biggest packages and folders in it, by minified size before gzip, to see where bytes go.
      const byOwner = new Map<string, number>();
      for (const chunk of chunks.filter((candidate) => initial.has(candidate.fileName))) {
        for (const [id, module] of Object.entries(chunk.modules)) {
          const owner = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(id)?.[1] ?? /\/(widget|runtime\/[^/]+|runtime\/adapters\/[^/]+)\//.exec(id)?.[1] ?? "other";
          byOwner.set(owner, (byOwner.get(owner) ?? 0) + module.renderedLength);
        }
      }
      const owners = [...byOwner].sort((a, b) => b[1] - a[1]).slice(0, 8);
      const lines = [
        "",
        "<AgentChat> with the cloud adapter, production build, gzip -9, React and ReactDOM excluded:",
        ...[...initial].map((name) => `  ${name.padEnd(36)} ${kb(gzip.get(name)!)}`),
        `  first render: ${kb(first)} (budget ${BUDGET_KB} KB)`,
        `  biggest parts (minified, before gzip): ${owners.map(([owner, bytes]) => `${owner} ${kb(bytes)}`).join(", ")}`,
        ...(lazy.length > 0 ? ["  loaded later, on use:", ...lazy.map((name) => `    ${name.padEnd(34)} ${kb(gzip.get(name)!)}`)] : []),
        `  all JavaScript: ${kb(first + sum(lazy))}`,
        "",
      ];
      console.log(lines.join("\n"));
      if (first > BUDGET_KB * 1000) {
        process.exitCode = 1;
        console.error(`Over budget: ${kb(first)} > ${BUDGET_KB} KB.`);
      }
    },
  };
}

export default defineConfig({
  root,
  logLevel: "warn",
  mode: "production",
  plugins: [react(), reportSize()],
  resolve: {
    alias: [{ find: /^@webmcp-agents\/chat$/, replacement: fileURLToPath(new URL("../widget/index.ts", import.meta.url)) }],
  },
  build: {
    write: false,
    outDir: fileURLToPath(new URL("../.cache/size", import.meta.url)),
    emptyOutDir: false,
    target: "es2022",
    rollupOptions: { external: (id) => REACT.some((name) => id === name || id.startsWith(`${name}/`)) },
  },
});
