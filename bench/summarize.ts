import type { BenchConfig, BenchPath, BenchResult, GenerationSample, PathSample, PathSummary, Ratios, Stat, ToolLoopSample, ToolLoopSummary } from "./bench-types.js";

export function stat(values: number[]): Stat {
  const sorted = values.filter((value) => Number.isFinite(value)).sort((a, b) => a - b);
  if (sorted.length === 0) return { median: Number.NaN, min: Number.NaN, max: Number.NaN, n: 0 };
  const middle = sorted.length >> 1;
  const median = sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
  return { median, min: sorted[0]!, max: sorted.at(-1)!, n: sorted.length };
}

export function summarizePath(samples: PathSample[], bandwidthLimit: number | null): PathSummary {
  const timed = samples.flatMap((s) => s.generations);
  const every = samples.flatMap((s) => [s.first, ...s.generations]);
  const decode = stat(timed.map((g) => g.decodeTokPerS));
  return {
    loadColdMs: stat(samples.filter((s) => s.loadKind === "cold").map((s) => s.loadMs)),
    loadWarmMs: stat(samples.filter((s) => s.loadKind === "warm").map((s) => s.loadMs)),
    firstTtftMs: stat(samples.map((s) => s.first.ttftMs)),
    firstDecodeTokPerS: stat(samples.map((s) => s.first.decodeTokPerS)),
    ttftMs: stat(timed.map((g) => g.ttftMs)),
    visibleTtftMs: stat(timed.map((g) => g.visibleTtftMs)),
    pageDecodeTokPerS: stat(timed.map((g) => g.pageDecodeTokPerS)),
    prefillTokPerS: stat(timed.map((g) => g.prefillTokPerS)),
    decodeTokPerS: decode,
    promptTokens: every[0]?.promptTokens ?? 0,
    outputTokens: stat(every.map((g) => g.outputTokens)),
    longTasks: every.reduce((total, g) => total + g.longTasks, 0),
    longestTaskMs: every.reduce((longest, g) => Math.max(longest, g.longestTaskMs), 0),
    longTaskScripts: [...new Set(every.flatMap((g) => g.longTaskScripts))],
    bandwidthShare: bandwidthLimit ? decode.median / bandwidthLimit : null,
    threads: [...new Set(samples.flatMap((s) => (s.threads === undefined ? [] : [s.threads])))].sort((a, b) => a - b),
  };
}

/** The median of `runtime / raw` over pairs measured together; NaN when there are none. */
function pairedRatio(pairs: [number, number][]): number {
  return stat(pairs.filter(([, raw]) => raw > 0).map(([runtime, raw]) => runtime / raw)).median;
}

function ratios(runs: BenchResult["runs"], raw: BenchPath): Ratios | undefined {
  const both = runs.flatMap((run) => (run.samples.runtime && run.samples[raw] ? [[run.samples.runtime, run.samples[raw]!] as const] : []));
  if (both.length === 0) return undefined;
  const rounds = both.flatMap(([runtime, other]) => runtime.generations.flatMap((g, i): [GenerationSample, GenerationSample][] => (other.generations[i] ? [[g, other.generations[i]!]] : [])));
  return {
    ttft: pairedRatio(rounds.map(([a, b]) => [a.ttftMs, b.ttftMs])),
    visibleTtft: pairedRatio(rounds.map(([a, b]) => [a.visibleTtftMs, b.visibleTtftMs])),
    decode: pairedRatio(rounds.map(([a, b]) => [a.decodeTokPerS, b.decodeTokPerS])),
    firstTtft: pairedRatio(both.map(([a, b]) => [a.first.ttftMs, b.first.ttftMs])),
    warmLoad: pairedRatio(both.filter(([a]) => a.loadKind === "warm").map(([a, b]) => [a.loadMs, b.loadMs])),
    bestTtft: Math.min(...rounds.map(([a]) => a.ttftMs)) / Math.min(...rounds.map(([, b]) => b.ttftMs)),
    bestDecode: Math.max(...rounds.map(([a]) => a.decodeTokPerS)) / Math.max(...rounds.map(([, b]) => b.decodeTokPerS)),
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
  const vsTransformers = ratios(partial.runs, "transformers");
  const vsOrt = ratios(partial.runs, "ort");
  if (vsTransformers) result.ratios.vsTransformers = vsTransformers;
  if (vsOrt) result.ratios.vsOrt = vsOrt;
  return result;
}

/** The tool loop's rounds: step 2's TTFT from step 1's cache against a fresh prefill of the same prompt. */
export function summarizeToolLoop(samples: ToolLoopSample[]): ToolLoopSummary {
  const ratio = (pick: (step: ToolLoopSample["reused"]) => number) =>
    stat(samples.filter((s) => pick(s.fresh) > 0).map((s) => pick(s.reused) / pick(s.fresh)));
  return {
    rounds: samples.length,
    step1PromptTokens: samples[0]?.step1.promptTokens ?? 0,
    step2PromptTokens: samples[0]?.reused.promptTokens ?? 0,
    cachedPromptTokens: stat(samples.map((s) => s.reused.cachedPromptTokens)),
    reusedTtftMs: stat(samples.map((s) => s.reused.ttftMs)),
    freshTtftMs: stat(samples.map((s) => s.fresh.ttftMs)),
    ttftRatio: ratio((step) => step.ttftMs),
    workerTtftRatio: ratio((step) => step.workerTtftMs),
    sameOutput: samples.every((s) => s.reused.text === s.fresh.text),
    turn2PromptTokens: samples[0]?.turn2.reused.promptTokens ?? 0,
    turn2CachedPromptTokens: stat(samples.map((s) => s.turn2.reused.cachedPromptTokens)),
    turn2TtftRatio: stat(samples.filter((s) => s.turn2.fresh.ttftMs > 0).map((s) => s.turn2.reused.ttftMs / s.turn2.fresh.ttftMs)),
    turn2WorkerTtftRatio: stat(samples.filter((s) => s.turn2.fresh.workerTtftMs > 0).map((s) => s.turn2.reused.workerTtftMs / s.turn2.fresh.workerTtftMs)),
  };
}

/** The tool loop's line for the printed summary. */
export function formatToolLoop(summary: ToolLoopSummary): string {
  return (
    `tool loop (runtime, ${summary.rounds} rounds): step 1 ${summary.step1PromptTokens} prompt tokens, step 2 ${summary.step2PromptTokens} of which ${spread(summary.cachedPromptTokens, 0)} from the cache; ` +
    `step 2 TTFT ${spread(summary.reusedTtftMs, 0)} ms with reuse, ${spread(summary.freshTtftMs, 0)} ms fresh: ${spread(summary.ttftRatio, 3)}x (worker ${spread(summary.workerTtftRatio, 3)}x)` +
    `${summary.sameOutput ? "; same output" : "; note: different output with reuse"}` +
    `\nnext user turn: ${summary.turn2PromptTokens} prompt tokens, ${spread(summary.turn2CachedPromptTokens, 0)} from the cache; TTFT with reuse / fresh ${spread(summary.turn2TtftRatio, 3)}x (worker ${spread(summary.turn2WorkerTtftRatio, 3)}x)`
  );
}

function bandwidthLimit(config: BenchConfig, weightsBytes: number): number | null {
  return config.bandwidthGBs && weightsBytes > 0 ? (config.bandwidthGBs * 1e9) / weightsBytes : null;
}

function outputsAgree(runs: BenchResult["runs"]): boolean {
  const counts = new Set(runs.flatMap((run) => Object.values(run.samples).flatMap((sample) => [sample!.first, ...sample!.generations].map((g) => g.outputTokens))));
  return counts.size <= 1;
}

const fixed = (value: number, digits: number) => (Number.isFinite(value) ? value.toFixed(digits) : "-");
const spread = (s: Stat, digits: number) => (s.n === 0 ? "-" : s.n === 1 ? fixed(s.median, digits) : `${fixed(s.median, digits)} (${fixed(s.min, digits)}-${fixed(s.max, digits)})`);

/** The results as rows of cells: a header row first. Medians, with min-max when there are several runs. */
export function resultRows(result: BenchResult): string[][] {
  const rows: string[][] = [["path", "threads", "load cold ms", "load warm ms", "first TTFT ms", "TTFT ms", "visible ms", "prefill tok/s", "decode tok/s", "page decode", "x bw limit", "prompt/out tok", "long tasks (max ms)", "TTFT / path", "visible / path", "decode / path"]];
  for (const [path, s] of Object.entries(result.summary) as [BenchPath, PathSummary][]) {
    const raw = path === "transformers" ? result.ratios.vsTransformers : path === "ort" ? result.ratios.vsOrt : undefined;
    rows.push([
      path,
      s.threads.length ? s.threads.join(",") : "-",
      spread(s.loadColdMs, 0),
      spread(s.loadWarmMs, 0),
      spread(s.firstTtftMs, 0),
      spread(s.ttftMs, 0),
      spread(s.visibleTtftMs, 0),
      spread(s.prefillTokPerS, 1),
      spread(s.decodeTokPerS, 1),
      spread(s.pageDecodeTokPerS, 1),
      s.bandwidthShare === null ? "-" : `${(s.bandwidthShare * 100).toFixed(1)}%`,
      `${s.promptTokens}/${fixed(s.outputTokens.median, 0)}`,
      `${s.longTasks} (${fixed(s.longestTaskMs, 0)})`,
      raw ? `runtime/${path} ${fixed(raw.ttft, 3)}` : "",
      raw ? `runtime/${path} ${fixed(raw.visibleTtft, 3)}` : "",
      raw ? `runtime/${path} ${fixed(raw.decode, 3)}` : "",
    ]);
  }
  return rows;
}

/**
 * The paired ratios, one line per raw path. A ratio with no pairs (warm load
 * after a single run: every path's only load is cold) reads "-", not NaN.
 */
export function ratioLines(result: BenchResult): string[] {
  return ([["transformers", result.ratios.vsTransformers], ["ort", result.ratios.vsOrt]] as const)
    .filter(([, r]) => r)
    .map(([path, r]) => `runtime/${path}: best TTFT ${fixed(r!.bestTtft, 3)}, best decode ${fixed(r!.bestDecode, 3)}, first TTFT ${fixed(r!.firstTtft, 3)}, warm load ${fixed(r!.warmLoad, 3)}`);
}

/** The rows as a fixed-width text table. */
export function formatTable(result: BenchResult): string {
  const rows = resultRows(result);
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  const lines = rows.map((row) => row.map((cell, column) => cell.padEnd(widths[column]!)).join("  ").trimEnd());
  lines.splice(1, 0, widths.map((width) => "-".repeat(width)).join("  "));
  const header = `${result.model.id} (${result.model.dtype}, ${(result.model.weightsBytes / 1e6).toFixed(1)} MB weights) on ${result.config.device}, ${result.config.runs} runs x ${result.config.generations} timed generations, prompt ~${result.config.promptTokens}, output ${result.config.outputTokens}`;
  const threads = `\nWASM threads: ${result.threadsRequested} asked for; the page is ${result.environment.crossOriginIsolated ? "" : "not "}cross-origin isolated; ${result.environment.cores} cores`;
  const tier = result.environment.liftoffOnly ? "\nV8's baseline wasm compiler only (--liftoff-only): these figures are not a person's speed" : "";
  const limit = result.bandwidthLimitTokPerS === null ? "" : `\nbandwidth limit: ${result.bandwidthLimitTokPerS.toFixed(1)} tok/s at ${result.config.bandwidthGBs} GB/s`;
  const footer = ratioLines(result);
  const scripts = Object.entries(result.summary).flatMap(([path, s]) => s!.longTaskScripts.map((script) => `long frame on ${path}: ${script}`));
  const notes = [
    "Every path on the same events: TTFT from the page's call to the engine's first token, visible to the first non-whitespace text on the page; decode on the engine's token events (page decode: first visible text to the end, on the page).",
    "Paired ratios (runtime / raw, same round); TTFT and decode over the timed generations, first TTFT over each load's first one.",
    ...footer,
    ...scripts,
    ...(result.outputsAgree ? [] : ["note: the paths generated different numbers of tokens"]),
    ...(result.toolLoop ? [formatToolLoop(result.toolLoop.summary)] : []),
  ];
  return `${header}${threads}${tier}${limit}\n${lines.join("\n")}\n${notes.join("\n")}`;
}
