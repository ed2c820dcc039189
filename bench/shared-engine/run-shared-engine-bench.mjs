#!/usr/bin/env node
// `npm run bench:shared [-- --runs 5 --models test-tiny,test-scripted]`: see shared-engine-bench.ts.
// Node 20 cannot run TypeScript; Vite's module runner runs it (as bench/run-bench.mjs does).
import { runnerImport } from "vite";

await runnerImport(new URL("./shared-engine-bench.ts", import.meta.url).pathname);
