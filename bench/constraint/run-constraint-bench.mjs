#!/usr/bin/env node
// `npm run bench:constraint [-- --calls 1000 --schemas 200 --unconstrained 1000 --rounds 3 --only validity|cost|mask]`:
// see run-constraint-bench.ts. Node 20 cannot run TypeScript; Vite's module runner runs it.
import { runnerImport } from "vite";

await runnerImport(new URL("./run-constraint-bench.ts", import.meta.url).pathname);
