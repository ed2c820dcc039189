#!/usr/bin/env node
// `npm run bench -- [--model tiny] [--device wasm|webgpu] [--runs 3] ...`: see bench/run-bench-cli.ts.
// Node 20 cannot run TypeScript; Vite's module runner runs the CLI (as models/test-models/build-test-models.mjs does).
import { runnerImport } from "vite";

await runnerImport(new URL("./run-bench-cli.ts", import.meta.url).pathname);
