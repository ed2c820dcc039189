/**
 * What the zero-cost path measures (run-zero-cost-bench.ts): the runtime
 * without a model, a scripted stream through the real worker, the format's
 * parser, the session and `<AgentChat>`.
 */

/** CPU time so far, from DevTools' `Performance.getMetrics` (`npm run bench` exposes it to the page). */
export interface CpuTimes {
  /** The page's main thread (`ThreadTime`). */
  mainMs: number;
  /** The renderer process, every thread (`ProcessTime`): the workers, the compositor, the garbage collector's helpers. */
  processMs: number;
  /** Of the main thread's tasks: script (`ScriptDuration`), style (`RecalcStyleDuration`) and layout (`LayoutDuration`), wall time. */
  scriptMs: number;
  styleMs: number;
  layoutMs: number;
}

/** One generation at one asked rate. */
export interface ZeroCostRound {
  /** Tokens per second asked of the engine; 0: as fast as the worker can. */
  askedRate: number;
  tokens: number;
  /** What the engine achieved: (tokens - 1) / (last token - first token). */
  engineRate: number;
  /** Tokens / (the reply whole on the screen - the first token): the rate to the screen. */
  screenRate: number;
  /** From the last token leaving the engine to the reply whole on the screen (a React commit). */
  lagMs: number;
  /** Main-thread CPU per token, ms (null without DevTools' metrics). */
  mainCpuPerTokenMs: number | null;
  /**
   * The renderer's other threads' CPU per token, ms: the worker, and the
   * compositor and GC helpers working for the page (an upper bound of the
   * worker's; null without DevTools' metrics).
   */
  otherThreadsCpuPerTokenMs: number | null;
  /** The main thread's script, style and layout time per token, ms (where its CPU goes; null without DevTools' metrics). */
  mainSplitPerTokenMs: { script: number; style: number; layout: number } | null;
  /** The worker's wall time per token while it emits back to back (askedRate 0 only): its CPU per token, the scripted engine's nothing included. */
  workerWallPerTokenMs: number | null;
  /** `<AgentChat>` commits (React's Profiler) per second of streaming, and per animation frame. */
  rendersPerSecond: number;
  rendersPerFrame: number;
  /** Messages the worker posted on the generation's port during the stream (coalescing: at most about one a frame). */
  portMessages: number;
  /** From the page's `client.generate` call to the engine's `generate` in the worker. */
  callToEngineMs: number;
  /** From `session.send()` to the engine's `generate`. */
  sendToEngineMs: number;
  /** Kept up: the engine reached 95% of the asked rate and the screen was at most 100 ms behind at the end. */
  sustained: boolean;
}

export interface ZeroCostResult {
  rounds: ZeroCostRound[];
  /** The highest asked rate sustained (0 when none was). */
  highestSustainedRate: number;
  /** Whether DevTools' CPU metrics were there (npm run bench), else only wall-clock figures. */
  cpuMetrics: boolean;
}

const fixed = (value: number | null, digits: number) => (value === null || !Number.isFinite(value) ? "-" : value.toFixed(digits));

/** The rounds as a text table, and the targets' line. */
export function formatZeroCost(result: ZeroCostResult): string {
  const header = ["asked tok/s", "tokens", "engine tok/s", "screen tok/s", "lag ms", "main ms/tok", "other threads ms/tok", "worker wall ms/tok", "renders/s", "renders/frame", "port msgs", "call->engine ms", "send->engine ms", "kept up"];
  const rows = result.rounds.map((round) => [
    round.askedRate === 0 ? "max" : String(round.askedRate),
    String(round.tokens),
    fixed(round.engineRate, 0),
    fixed(round.screenRate, 0),
    fixed(round.lagMs, 0),
    fixed(round.mainCpuPerTokenMs, 4),
    fixed(round.otherThreadsCpuPerTokenMs, 4),
    fixed(round.workerWallPerTokenMs, 4),
    fixed(round.rendersPerSecond, 1),
    fixed(round.rendersPerFrame, 2),
    String(round.portMessages),
    fixed(round.callToEngineMs, 2),
    fixed(round.sendToEngineMs, 2),
    round.sustained ? "yes" : "no",
  ]);
  const table = [header, ...rows];
  const widths = header.map((_, column) => Math.max(...table.map((row) => row[column]!.length)));
  const lines = table.map((row) => row.map((cell, column) => cell.padEnd(widths[column]!)).join("  ").trimEnd());
  lines.splice(1, 0, widths.map((width) => "-".repeat(width)).join("  "));
  return [
    "zero-cost engine (a scripted stream through the real worker, the format's parser, the session and <AgentChat>):",
    ...lines,
    `highest rate sustained to the screen: ${result.highestSustainedRate || "none"} tok/s${result.cpuMetrics ? "" : " (no DevTools CPU metrics on this page: run npm run bench)"}`,
  ].join("\n");
}
