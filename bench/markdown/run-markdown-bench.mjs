#!/usr/bin/env node
// `npm run bench:markdown [-- --only after]`: see run-markdown-bench.ts.
// Node 20 cannot run TypeScript; Vite's module runner runs it (as bench/run-bench.mjs does).
import { runnerImport } from "vite";

await runnerImport(new URL("./run-markdown-bench.ts", import.meta.url).pathname);
