#!/usr/bin/env node
// `npm run bench:constraint [-- --calls 1000 --schemas 200 --unconstrained 200 --only compile|mask|validity|cost|jump|parsers] [--no-shaped]`:
// see run-constraint-bench.ts. Node 20 cannot run TypeScript; Vite's module runner runs it.
import { runnerImport } from "vite";

await runnerImport(new URL("./run-constraint-bench.ts", import.meta.url).pathname);
