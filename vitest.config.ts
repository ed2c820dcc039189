import { configDefaults, defineConfig } from "vitest/config";
import { packageAliases } from "./examples/package-aliases.js";
import { isolatedTestFiles } from "./runtime/test-support/isolated-test-files.js";
import { LongestFirstSequencer } from "./runtime/test-support/longest-first-sequencer.js";

/** Every test file; each project below takes its part of them. */
const ALL = "{runtime,worker,models,widget,examples,bench}/**/*.test.{ts,tsx}";
/** Headless Chromium and a server per file (fixture pages prebuilt). */
const BROWSER = "{runtime,worker,models,widget,examples,bench}/**/*.browser.test.{ts,tsx}";
/** What a site gets: the packed tarball installed in apps, the production builds. */
const PACKAGE = ["runtime/package-build.test.ts", "examples/examples-build.browser.test.ts", "bench/size.test.ts"];
/**
 * CPU-bound property runs (the fuzz targets and the fuzz harness's own
 * timing case; the constraint's exhaustive and random-schema runs),
 * whole-project checks (the README's examples compiled, a double's shape
 * against published typings, the dependency rules, `npm run catalog:check`
 * end to end) and
 * tests against a process they start (a real redis-server): seconds to tens
 * of seconds each, so they stay out of the edit loop's `unit` tier too.
 */
const CHECKS = [
  "**/*.fuzz.test.{ts,tsx}",
  "runtime/test-support/fuzz-property.test.ts",
  "runtime/test-support/language-model-double/language-model-double.typings.test.ts",
  "worker/tool-call-constraint/{admitted-calls,grammar/number-range-rules,bounds/bounds-restriction,budget/completion-planner}.test.ts",
  "runtime/adapters/built-in/response-constraint.test.ts",
  "examples/readme.test.ts",
  "examples/docs-examples.test.ts",
  "examples/docs-options.test.ts",
  "examples/docs-exports.test.ts",
  "runtime/layer-rules.test.ts",
  "models/catalog-check/catalog-check.test.ts",
  "runtime/server/counter-stores.test.ts",
];
/**
 * Node tests that run a model through the real transformers.js (the
 * project's generated models): seconds each, minutes together, so they stay
 * out of the edit loop's `unit` tier. Named by file, wherever it lives.
 */
const ENGINE = [
  "bench/bench.test.ts",
  "models/neutralize-model-text.test.ts",
  "models/test-models/{ensure-test-model,qwen3-shaped-model,qwen35-scripted-model,qwen35-shaped-model,scripted-model,tiny-model,vocabulary-prefix}.test.ts",
  "worker/engine-client.test.ts",
  "worker/prefix-cache.test.ts",
  "worker/serve-engine-clients.test.ts",
  "worker/transformers-engine*.test.ts",
  "worker/**/{constrained-engine,jump-forward,sampled-calls,through-the-adapter,tokenizer-vocabulary}.test.ts",
];

/** Edit-loop files that need their own module graph (a DOM, a module mock, a stubbed global): the rest share one per worker. */
const ISOLATED = isolatedTestFiles(["runtime", "worker", "models", "widget", "examples", "bench"]);

/** A failed browser test prints where its pages stood (progress, console). */
const REPORT_PAGES = "runtime/test-support/report-pages-on-failure.ts";

export default defineConfig({
  // Tests import the examples, which import the package by name, as a site does.
  resolve: { alias: packageAliases() },
  test: {
    environment: "node",
    reporters: ["default", ["json", { outputFile: "test-results/vitest.json" }]],
    // The small test models, built once before any file runs.
    globalSetup: ["runtime/test-support/global-setup.ts"],
    // Every test's time against its timeout (runtime/test-support/report-timeout-room.mjs reads it).
    setupFiles: ["runtime/test-support/timeout-room.ts"],
    // Browser tests launch headless Chromium and a Vite server each; two cores
    // bear two of them at once at most.
    maxWorkers: 2,
    // The longest files first, across tiers, so no long file is left to run alone at the end.
    sequence: { sequencer: LongestFirstSequencer },
    testTimeout: 20_000,
    hookTimeout: 60_000,
    // The tiers: `npm run test:unit` is the edit loop (Node, no model, no browser);
    // `npm test` runs all five. `vitest run --project browser` runs one.
    projects: [
      // Worker threads start faster than forked processes (51 against 58 s for this tier in one window); the engine tier keeps forks for onnxruntime-node.
      // Without per-file isolation the files of a worker import the runtime once (64 against 78 s for this tier in one window).
      { extends: true, test: { name: "unit", pool: "threads", isolate: false, include: [ALL], exclude: [...configDefaults.exclude, BROWSER, ...PACKAGE, ...ENGINE, ...CHECKS, ...ISOLATED] } },
      { extends: true, test: { name: "unit-isolated", pool: "threads", include: ISOLATED, exclude: [...configDefaults.exclude, BROWSER, ...PACKAGE, ...ENGINE, ...CHECKS] } },
      { extends: true, test: { name: "checks", pool: "threads", include: CHECKS, exclude: [...configDefaults.exclude, BROWSER, ...PACKAGE, ...ENGINE] } },
      { extends: true, test: { name: "engine", include: ENGINE, exclude: [...configDefaults.exclude, BROWSER] } },
      // Its fixture pages are built once, before its first file (runtime/test-support/build-fixtures-setup.ts).
      { extends: true, test: { name: "browser", include: [BROWSER], exclude: [...configDefaults.exclude, ...PACKAGE], globalSetup: ["runtime/test-support/build-fixtures-setup.ts"], setupFiles: [REPORT_PAGES] } },
      { extends: true, test: { name: "package", include: PACKAGE, setupFiles: [REPORT_PAGES] } },
    ],
  },
});
