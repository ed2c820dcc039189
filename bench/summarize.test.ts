import { describe, expect, it } from "vitest";
import type { BenchResult, GenerationSample, PathSample } from "./bench-types.js";
import { formatTable, ratioLines, summarize } from "./summarize.js";

const generation = (ttftMs: number, decodeTokPerS: number, extra: Partial<GenerationSample> = {}): GenerationSample => ({
  ttftMs,
  visibleTtftMs: ttftMs + 2,
  prefillTokPerS: 100 / (ttftMs / 1000),
  decodeTokPerS,
  pageDecodeTokPerS: decodeTokPerS,
  firstTokenAt: 1,
  promptTokens: 100,
  outputTokens: 16,
  workerTtftMs: ttftMs - 1,
  workerDecodeTokPerS: decodeTokPerS,
  longTasks: 0,
  longestTaskMs: 0,
  longTaskScripts: [],
  text: "x",
  ...extra,
});

const sample = (loadKind: PathSample["loadKind"], loadMs: number, first: GenerationSample, generations: GenerationSample[]): PathSample => ({ loadKind, loadMs, first, generations, threads: 2 });

function result(runs: BenchResult["runs"]): BenchResult {
  return summarize({
    version: 2,
    date: "2026-11-30T00:00:00.000Z",
    config: { model: "tiny", engine: "transformers", device: "wasm", promptTokens: 100, outputTokens: 16, runs: runs.length, generations: 2, bandwidthGBs: 10 },
    model: { id: "tiny", dtype: "fp32", weightsBytes: 1e9 },
    environment: { userAgent: "test", cores: 2, crossOriginIsolated: true, webgpu: false, fallbackAdapter: false },
    threadsRequested: 2,
    runs,
  });
}

describe("summarize", () => {
  const runs: BenchResult["runs"] = [
    {
      order: ["runtime", "transformers"],
      samples: {
        runtime: sample("cold", 1000, generation(400, 5), [generation(110, 9), generation(300, 3)]),
        transformers: sample("cold", 900, generation(200, 6), [generation(100, 10), generation(200, 6)]),
      },
    },
    {
      order: ["transformers", "runtime"],
      samples: {
        runtime: sample("warm", 600, generation(300, 5, { longTasks: 1, longestTaskMs: 70, longTaskScripts: ["70 ms frame: no script"] }), [generation(120, 8), generation(105, 10)]),
        transformers: sample("warm", 500, generation(300, 6), [generation(100, 10), generation(100, 10)]),
      },
    },
  ];
  const summary = result(runs);

  it("keeps the first generation after a load apart from the timed ones", () => {
    const runtime = summary.summary.runtime!;
    expect(runtime.firstTtftMs).toEqual({ median: 350, min: 300, max: 400, n: 2 });
    expect(runtime.ttftMs).toEqual({ median: 115, min: 105, max: 300, n: 4 });
    expect(runtime.loadColdMs.median).toBe(1000);
    expect(runtime.loadWarmMs.median).toBe(600);
    expect(runtime.longTasks).toBe(1);
    expect(runtime.longestTaskMs).toBe(70);
    expect(runtime.longTaskScripts).toEqual(["70 ms frame: no script"]);
    expect(runtime.bandwidthShare).toBeCloseTo(8.5 / 10);
  });

  it("takes ratios as medians of same-round pairs, and best against best", () => {
    const ratios = summary.ratios.vsTransformers!;
    // TTFT pairs: 110/100, 300/200, 120/100, 105/100 -> 1.05, 1.1, 1.2, 1.5: median 1.15.
    expect(ratios.ttft).toBeCloseTo(1.15);
    // The first visible text, its own pairs: 112/102, 302/202, 122/102, 107/102.
    expect(ratios.visibleTtft).toBeCloseTo((122 / 102 + 112 / 102) / 2);
    // Decode pairs: 0.9, 0.5, 0.8, 1.0 -> median 0.85.
    expect(ratios.decode).toBeCloseTo(0.85);
    expect(ratios.firstTtft).toBeCloseTo(1.5); // 2 and 1
    expect(ratios.warmLoad).toBeCloseTo(1.2);
    expect(ratios.bestTtft).toBeCloseTo(1.05);
    expect(ratios.bestDecode).toBeCloseTo(1);
    expect(summary.ratios.vsOrt).toBeUndefined();
    expect(summary.outputsAgree).toBe(true);
  });

  it("prints the ratios and the long frames under the table", () => {
    const table = formatTable(summary);
    expect(table).toMatch(/^tiny \(fp32, 1000\.0 MB weights\) on wasm, 2 runs x 2 timed generations/);
    expect(table).toContain("runtime/transformers: best TTFT 1.050, best decode 1.000, first TTFT 1.500, warm load 1.200");
    expect(table).toContain("long frame on runtime: 70 ms frame: no script");
  });

  it("prints '-', not NaN, for the warm-load ratio after one run (its loads are all cold)", () => {
    const lines = ratioLines(result(runs.slice(0, 1)));
    expect(lines).toEqual(["runtime/transformers: best TTFT 1.100, best decode 0.900, first TTFT 2.000, warm load -"]);
  });

  it("reports the WASM threads each path ran on, and the threads asked for on an isolated page", () => {
    expect(summary.summary.runtime!.threads).toEqual([2]);
    const table = formatTable(summary);
    expect(table).toContain("WASM threads: 2 asked for; the page is cross-origin isolated; 2 cores");
    expect(table).toMatch(/^path\s+threads\s+load cold ms/m);
    expect(table).toMatch(/^runtime\s+2\s/m);
  });
});
