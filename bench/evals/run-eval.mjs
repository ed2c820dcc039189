#!/usr/bin/env node
// `npm run eval -- [--models …] [--threshold 0.8] [--url …]`: see bench/evals/run-eval-cli.ts.
// Node 20 cannot run TypeScript; Vite's module runner runs the CLI (as bench/run-bench.mjs does),
// with the package's names mapped to the source as the examples map them (examples/package-aliases.ts).
import { runnerImport } from "vite";

const { module: aliases } = await runnerImport(new URL("../../examples/package-aliases.ts", import.meta.url).pathname);
process.env.WEB_AGENTS_EVAL_CLI = "1";
await runnerImport(new URL("./run-eval-cli.ts", import.meta.url).pathname, { resolve: { alias: aliases.packageAliases() } });
