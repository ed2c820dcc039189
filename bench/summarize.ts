import type { BenchConfig, BenchPath, BenchResult, PathSample, PathSummary, Ratios, Stat } from "./bench-types.js";

export function stat(values: number[]): Stat {
  const sorted = values.filter((value) => Number.isFinite(value)).sort((a, b) => a - b);
  if (sorted.length === 0) return { median: Number.NaN, min: Number.NaN, max: Number.NaN, n: 0 };
  const middle = sorted.length >> 1;
  const median = sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
  return { median, min: sorted[0]!, max: sorted.at(-1)!, n: sorted.length };
}

export function summarizePath(samples: PathSample[], bandwidthLimit: number | null): PathSummary {
  const decode = stat(samples.map((s) => s.decodeTokPerS));
  return {
    loadColdMs: stat(samples.filter((s) => s.loadKind === "cold").map((s) => s.loadMs)),
    loadWarmMs: stat(samples.filter((s) => s.loadKind === "warm").map((s) => s.loadMs)),
    ttftMs: stat(samples.map((s) => s.ttftMs)),
    prefillTokPerS: stat(samples.map((s) => s.prefillTokPerS)),
    decodeTokPerS: decode,
    promptTokens: samples[0]?.promptTokens ?? 0,
    outputTokens: stat(samples.map((s) => s.outputTokens)),
    longTasks: samples.reduce((total, s) => total + s.longTasks, 0),
    longestTaskMs: samples.reduce((longest, s) => Math.max(longest, s.longestTaskMs), 0),
    bandwidthShare: bandwidthLimit ? decode.median / bandwidthLimit : null,
  };
}

function ratios(runtime: PathSummary, raw: PathSummary): Ratios {
  return {
    ttft: runtime.ttftMs.median / raw.ttftMs.median,
    decode: runtime.decodeTokPerS.median / raw.decodeTokPerS.median,
    warmLoad: runtime.loadWarmMs.median / raw.loadWarmMs.median,
  };
}

/** Builds the summary, the ratios and the bandwidth figures from the runs. */
export function summarize(partial: Omit<BenchResult, "summary" | "ratios" | "bandwidthLimitTokPerS" | "outputsAgree">): BenchResult {
  const { config } = partial;
  const limit = bandwidthLimit(config, partial.model.weightsBytes);
  const summary: BenchResult["summary"] = {};
  const paths = new Set(partial.runs.flatMap((run) => Object.keys(run.samples) as BenchPath[]));
  for (const path of paths) {
    summary[path] = summarizePath(partial.runs.flatMap((run) => (run.samples[path] ? [run.samples[path]!] : [])), limit);
  }
  const result: BenchResult = { ...partial, bandwidthLimitTokPerS: limit, summary, ratios: {}, outputsAgree: outputsAgree(partial.runs) };
  if (summary.runtime && summary.transformers) result.ratios.vsTransformers = ratios(summary.runtime, summary.transformers);
  if (summary.runtime && summary.ort) result.ratios.vsOrt = ratios(summary.runtime, summary.ort);
  return result;
}

function bandwidthLimit(config: BenchConfig, weightsBytes: number): number | null {
  return config.bandwidthGBs && weightsBytes > 0 ? (config.bandwidthGBs * 1e9) / weightsBytes : null;
}

function outputsAgree(runs: BenchResult["runs"]): boolean {
  const texts = new Set(runs.flatMap((run) => Object.values(run.samples).map((sample) => sample!.outputTokens)));
  return texts.size <= 1;
}

const fixed = (value: number, digits: number) => (Number.isFinite(value) ? value.toFixed(digits) : "-");
const spread = (s: Stat, digits: number) => (s.n === 0 ? "-" : s.n === 1 ? fixed(s.median, digits) : `${fixed(s.median, digits)} (${fixed(s.min, digits)}-${fixed(s.max, digits)})`);

/** The results as rows of cells: a header row first. Medians, with min-max when there are several runs. */
export function resultRows(result: BenchResult): string[][] {
  const rows: string[][] = [["path", "load cold ms", "load warm ms", "TTFT ms", "prefill tok/s", "decode tok/s", "x bw limit", "prompt/out tok", "long tasks (max ms)", "TTFT / path", "decode / path"]];
  for (const [path, s] of Object.entries(result.summary) as [BenchPath, PathSummary][]) {
    const raw = path === "transformers" ? result.ratios.vsTransformers : path === "ort" ? result.ratios.vsOrt : undefined;
    rows.push([
      path,
      spread(s.loadColdMs, 0),
      spread(s.loadWarmMs, 0),
      spread(s.ttftMs, 0),
      spread(s.prefillTokPerS, 1),
      spread(s.decodeTokPerS, 1),
      s.bandwidthShare === null ? "-" : `${(s.bandwidthShare * 100).toFixed(1)}%`,
      `${s.promptTokens}/${fixed(s.outputTokens.median, 0)}`,
      `${s.longTasks} (${fixed(s.longestTaskMs, 0)})`,
      raw ? `runtime/${path} ${fixed(raw.ttft, 3)}` : "",
      raw ? `runtime/${path} ${fixed(raw.decode, 3)}` : "",
    ]);
  }
  return rows;
}

/** The rows as a fixed-width text table. */
export function formatTable(result: BenchResult): string {
  const rows = resultRows(result);
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  const lines = rows.map((row) => row.map((cell, column) => cell.padEnd(widths[column]!)).join("  ").trimEnd());
  lines.splice(1, 0, widths.map((width) => "-".repeat(width)).join("  "));
  const header = `${result.model.id} (${result.model.dtype}, ${(result.model.weightsBytes / 1e6).toFixed(1)} MB weights) on ${result.config.device}, ${result.config.runs} runs, prompt ~${result.config.promptTokens}, output ${result.config.outputTokens}`;
  const limit = result.bandwidthLimitTokPerS === null ? "" : `\nbandwidth limit: ${result.bandwidthLimitTokPerS.toFixed(1)} tok/s at ${result.config.bandwidthGBs} GB/s`;
  const warm = [result.ratios.vsTransformers && `runtime/transformers warm load ${fixed(result.ratios.vsTransformers.warmLoad, 3)}`, result.ratios.vsOrt && `runtime/ort warm load ${fixed(result.ratios.vsOrt.warmLoad, 3)}`].filter(Boolean).join(", ");
  return `${header}${limit}\n${lines.join("\n")}\n${warm}${result.outputsAgree ? "" : "\nnote: the paths generated different numbers of tokens"}`;
}
