#!/usr/bin/env node
// `npm run bench:session [-- --deltas 40000 --per-frame 32 --repeat 7]`: see session-part-cost.ts.
// Node 20 cannot run TypeScript; Vite's module runner runs it (as bench/run-bench.mjs does).
import { runnerImport } from "vite";

await runnerImport(new URL("./session-part-cost.ts", import.meta.url).pathname);
