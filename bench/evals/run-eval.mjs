#!/usr/bin/env node
// `npm run eval -- [--models …] [--threshold 0.8] [--url …]`: see bench/evals/run-eval-cli.ts.
// Node 20 cannot run TypeScript; Vite's module runner runs the CLI (as bench/run-bench.mjs does).
import { runnerImport } from "vite";

process.env.WEB_AGENTS_EVAL_CLI = "1";
await runnerImport(new URL("./run-eval-cli.ts", import.meta.url).pathname);
