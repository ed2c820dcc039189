/**
 * Entry point of `npm run models:build` (launched by build-test-models.mjs).
 * It does its work while being imported: Vite's module runner closes once
 * the import returns, and the scripted model's tokenizer is imported lazily.
 */
import { runBuildCli } from "./run-build-cli.js";

process.exitCode = await runBuildCli(process.argv.slice(2));
