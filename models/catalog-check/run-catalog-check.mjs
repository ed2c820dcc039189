#!/usr/bin/env node
// `npm run catalog:check`: the TypeScript CLI through Vite's module runner
// (Node 20 runs no TypeScript; see models/test-models/build-test-models.mjs).
import { runnerImport } from "vite";

await runnerImport(new URL("./run-catalog-check.ts", import.meta.url).pathname);
