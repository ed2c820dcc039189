#!/usr/bin/env node
// `npm run bench:qwen35-prefill -- [--layers 4] [--tokens 64,256,1024] [--runs 3] [--runtime node,wasm]`: see bench/qwen35-prefill-layouts.ts.
// Node 20 cannot run TypeScript; Vite's module runner runs it (as bench/run-bench.mjs does).
import { runnerImport } from "vite";

await runnerImport(new URL("./qwen35-prefill-layouts.ts", import.meta.url).pathname);
