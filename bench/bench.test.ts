import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureTestModel, tinyModel } from "../models/test-models/index.js";
import type { BenchResult, PathSummary, Stat } from "./bench-types.js";
import { ByteLevelDecoder, type TokenizerJson } from "./byte-level-decoder.js";
import { parseBenchArguments } from "./parse-bench-arguments.js";

const run = promisify(execFile);
const repoRoot = fileURLToPath(new URL("..", import.meta.url));

describe("parseBenchArguments", () => {
  it("reads every option and refuses unknown ones", () => {
    expect(parseBenchArguments(["--model", "qwen3-0.6b-shaped-q8", "--runs=5", "--generations", "4", "--device", "webgpu", "--prompt", "256", "--output", "32", "--bandwidth", "100", "--out", "x"])).toEqual({
      config: { model: "qwen3-0.6b-shaped-q8", engine: "transformers", device: "webgpu", runs: 5, generations: 4, promptTokens: 256, outputTokens: 32, bandwidthGBs: 100 },
      webgpu: true,
      trace: false,
      liftoffOnly: false,
      outDir: "x",
      zeroCostRates: [250, 1000, 2000, 4000, 8000, 0],
      zeroCostOnly: false,
      sharedArgs: ["--sections", "load,memory,turn"],
    });
    expect(parseBenchArguments(["--zero-cost", "500,max", "--zero-cost-only"])).toMatchObject({ zeroCostRates: [500, 0], zeroCostOnly: true });
    expect(parseBenchArguments(["--zero-cost", "none"]).zeroCostRates).toBeNull();
    expect(parseBenchArguments(["--liftoff-only"]).liftoffOnly).toBe(true);
    expect(() => parseBenchArguments(["--zero-cost", "fast"])).toThrow(/--zero-cost takes/);
    expect(() => parseBenchArguments(["--modle", "tiny"])).toThrow(/Unknown option --modle/);
    expect(() => parseBenchArguments(["--runs", "0"])).toThrow(/--runs must be/);
    expect(() => parseBenchArguments(["--generations", "0"])).toThrow(/--generations must be/);
    expect(parseBenchArguments([]).config).toMatchObject({ model: "tiny-text", device: "wasm", runs: 3, generations: 3 });
    expect(parseBenchArguments([]).config.threads).toBeUndefined();
    expect(parseBenchArguments(["--threads", "2"]).config.threads).toBe(2);
    expect(() => parseBenchArguments(["--threads", "0"])).toThrow(/--threads must be/);
    // worker.shared's figures: every section by default, after the model's paths.
    expect(parseBenchArguments(["--shared", "load", "--shared-runs", "3", "--shared-models", "qwen3-0.6b-shaped-q8"]).sharedArgs).toEqual(["--sections", "load", "--runs", "3", "--models", "qwen3-0.6b-shaped-q8"]);
    expect(parseBenchArguments(["--shared", "none"]).sharedArgs).toBeNull();
    expect(parseBenchArguments(["--zero-cost-only"]).sharedArgs).toBeNull();
    expect(() => parseBenchArguments(["--shared", "speed"])).toThrow(/^--shared: unknown speed/);
    expect(() => parseBenchArguments(["--shared-runs", "0"])).toThrow(/^--shared-runs takes a whole number/);
    expect(() => parseBenchArguments(["--shared-models", "gpt"])).toThrow(/^--shared-models: unknown gpt/);
    expect(() => parseBenchArguments(["--shared", "none", "--shared-runs", "3"])).toThrow(/need the shared-engine figures/);
  });
});

describe("ByteLevelDecoder (the bare ONNX Runtime baseline's only tokenizer work)", () => {
  it("decodes Qwen3 byte-level tokens, holds a split character until it completes, and drops special tokens", async () => {
    const tiny = await ensureTestModel(tinyModel());
    const json = JSON.parse(readFileSync(join(tiny.folder, "tokenizer.json"), "utf8")) as TokenizerJson;
    const decoder = new ByteLevelDecoder(json);
    const vocab = json.model.vocab;
    const pieces = ["Hello", "\u0120world", "\u010a", "\u00e4\u00bd\u0142", "\u00e5\u00a5\u00bd"].map((token) => decoder.next(vocab[token]!));
    expect(pieces.join("")).toBe("Hello world\n你好");
    expect(decoder.next(151645)).toBe("");
  });
});

// Not a timed test: it checks that `npm run bench` runs end to end and that its JSON is whole.
describe("npm run bench on the tiny model's visible-text variant (smoke)", () => {
  let out: string;
  let result: BenchResult;
  let stdout: string;

  // The bench's own work: three engine paths, two runs each. With V8's optimizing wasm tier, as
  // `npm run bench` measures, the run took 61 s alone here (2026-12-07) and 118 s in a fresh
  // suite; --liftoff-only leaves out the tier's compiles of ONNX Runtime for every load: 39 s alone.
  beforeAll(async () => {
    await ensureTestModel(tinyModel());
    out = mkdtempSync(join(tmpdir(), "bench-smoke-"));
    ({ stdout } = await run(
      process.execPath,
      ["bench/run-bench.mjs", "--model", "tiny-text", "--runs", "2", "--generations", "2", "--device", "wasm", "--prompt", "32", "--output", "8", "--bandwidth", "50", "--trace", "--zero-cost", "500,max", "--shared", "none", "--liftoff-only", "--out", out],
      { cwd: repoRoot, timeout: 540_000, maxBuffer: 16 * 1024 * 1024 },
    ));
    result = JSON.parse(readFileSync(join(out, "latest.json"), "utf8")) as BenchResult;
  }, 550_000);
  afterAll(() => out && rmSync(out, { recursive: true, force: true }));

  const positive = (s: Stat) => {
    expect(s.n).toBeGreaterThan(0);
    for (const value of [s.median, s.min, s.max]) {
      expect(Number.isFinite(value)).toBe(true);
      expect(value).toBeGreaterThan(0);
    }
    expect(s.min).toBeLessThanOrEqual(s.median);
    expect(s.median).toBeLessThanOrEqual(s.max);
  };

  it("prints the table and writes the JSON and the SVG chart", () => {
    expect(stdout).toMatch(/path\s+threads\s+load cold ms\s+load warm ms\s+first TTFT ms\s+TTFT ms/);
    expect(stdout).toMatch(/runtime\/transformers: best TTFT \d[\d.]*, best decode \d[\d.]*, first TTFT \d/);
    expect(stdout).toMatch(/^runtime\s/m);
    expect(stdout).toContain("V8's baseline wasm compiler only (--liftoff-only): these figures are not a person's speed");
    expect(readFileSync(join(out, "latest.svg"), "utf8")).toMatch(/^<svg[\s\S]*<\/svg>$/);
    expect(stdout).toMatch(/^trace: (no main-thread task over 50 ms|main-thread tasks over 50 ms)/m);
  });

  it("with --trace, writes a Chromium trace holding the page's generation marks, and its long tasks", () => {
    const trace = JSON.parse(readFileSync(result.trace!.file, "utf8")) as { traceEvents: { name: string }[] };
    // 2 runs x 3 paths x (first + 2 timed), each a begin and an end.
    expect(trace.traceEvents.filter((event) => event.name.startsWith("bench:"))).toHaveLength(36);
    expect(Array.isArray(result.trace!.longTasks)).toBe(true);
    for (const task of result.trace!.longTasks) expect(task.wallMs).toBeGreaterThan(50);
  });

  it("has every field, with plausible values, for all three paths", () => {
    expect(result).toMatchObject({ version: 2, config: { model: "tiny-text", device: "wasm", runs: 2, generations: 2, outputTokens: 8 }, model: { id: "tiny-text", dtype: "fp32" } });
    expect(result.model.weightsBytes).toBeGreaterThan(50_000);
    expect(result.environment.cores).toBeGreaterThan(0);
    expect(result.environment.liftoffOnly).toBe(true);
    // The bench server sends COOP/COEP; with no --threads every path gets the runtime's default.
    expect(result.environment.crossOriginIsolated).toBe(true);
    expect(result.threadsRequested).toBe(Math.max(1, Math.min(4, result.environment.cores - 1)));
    expect(stdout).toContain(`WASM threads: ${result.threadsRequested} asked for; the page is cross-origin isolated`);
    expect(result.runs).toHaveLength(2);
    expect(result.bandwidthLimitTokPerS).toBeCloseTo(50e9 / result.model.weightsBytes);
    for (const path of ["runtime", "transformers", "ort"] as const) {
      const summary = result.summary[path] as PathSummary;
      for (const key of ["loadColdMs", "loadWarmMs", "firstTtftMs", "firstDecodeTokPerS", "ttftMs", "visibleTtftMs", "prefillTokPerS", "decodeTokPerS", "pageDecodeTokPerS", "outputTokens"] as const) positive(summary[key]);
      expect(summary.ttftMs.n).toBe(4);
      expect(summary.firstTtftMs.n).toBe(2);
      expect(Array.isArray(summary.longTaskScripts)).toBe(true);
      expect(summary.promptTokens).toBeGreaterThan(10);
      expect(summary.outputTokens.max).toBeLessThanOrEqual(8);
      expect(summary.longTasks).toBeGreaterThanOrEqual(0);
      expect(summary.longestTaskMs).toBeGreaterThanOrEqual(0);
      expect(summary.bandwidthShare).toBeGreaterThan(0);
      expect(summary.bandwidthShare).toBeLessThan(1);
      for (const run of result.runs) {
        const sample = run.samples[path]!;
        expect(sample.generations).toHaveLength(2);
        expect(sample.threads).toBe(result.threadsRequested);
        for (const generation of [sample.first, ...sample.generations]) {
          // tiny-text writes visible text on every path, so "visible" times an event, not the end.
          expect(generation.text.trim().length).toBeGreaterThan(0);
          expect(generation.firstTokenAt).toBeGreaterThan(0);
          expect(generation.visibleTtftMs).toBeGreaterThanOrEqual(generation.ttftMs - 1);
          expect(generation.workerTtftMs).toBeGreaterThan(0);
          expect(generation.workerTtftMs).toBeLessThanOrEqual(generation.ttftMs + 1);
        }
      }
    }
    // The zero-cost path ran in the same run: every round streamed its reply whole, in far fewer messages than tokens.
    expect(result.zeroCost?.rounds.map((round) => round.askedRate)).toEqual([500, 0]);
    for (const round of result.zeroCost!.rounds) {
      expect(round.screenRate).toBeGreaterThan(0);
      expect(round.mainCpuPerTokenMs).toBeGreaterThan(0);
      expect(round.portMessages).toBeLessThan(round.tokens / 2);
    }
    expect(stdout).toContain("zero-cost engine (a scripted stream");
    // The same prompt through all three: same token count.
    expect(new Set(Object.values(result.summary).map((s) => s!.promptTokens)).size).toBe(1);
    for (const ratios of [result.ratios.vsTransformers, result.ratios.vsOrt]) {
      for (const value of Object.values(ratios!)) {
        expect(Number.isFinite(value)).toBe(true);
        expect(value).toBeGreaterThan(0);
      }
    }
  });
});
