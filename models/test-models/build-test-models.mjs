#!/usr/bin/env node
// `npm run models:build [-- --only tiny,scripted | --shaped fp32,q8,q4 | --shaped-qwen35 fp32,q8 | --all | --force]`.
// Node 20 cannot run TypeScript and the project has no tsx; Vite (a dev
// dependency) runs the TypeScript CLI through its module runner, which
// resolves the `.js` specifiers to `.ts` files as the bundler does.
import { runnerImport } from "vite";

await runnerImport(new URL("./build-test-models.ts", import.meta.url).pathname);
