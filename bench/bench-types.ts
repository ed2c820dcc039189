/**
 * What the bench measures and reports. Plain JSON: the page returns it to
 * `npm run bench`, which writes it under bench/results/.
 */

import type { ModelFormatId } from "../models/model-format-id.js";
import type { TracedLongTask } from "./trace-long-tasks.js";
import type { ZeroCostResult } from "./zero-cost/zero-cost-result.js";

/** The three ways a model is run, interleaved in one bench run. */
export type BenchPath = "runtime" | "transformers" | "ort";

export const BENCH_PATHS: readonly BenchPath[] = ["runtime", "transformers", "ort"];

/** The model `npm run bench` and the page start on: `tiny` with a reply that is visible text (bench/visible-text-model.ts). */
export const DEFAULT_BENCH_MODEL = "tiny-text";

export const PATH_LABELS: Readonly<Record<BenchPath, string>> = {
  runtime: "runtime (createLocalAdapter.run, engine worker)",
  transformers: "transformers.js directly (own worker)",
  ort: "bare onnxruntime-web loop (own worker)",
};

/** A model the bench can run: a built test model or a catalog variant. */
export interface BenchModel {
  /** `test-tiny`, `qwen3-0.6b-shaped-q8`, `qwen3-0.6b/wasm-q8`… */
  id: string;
  label: string;
  /** transformers.js dtype. */
  dtype: string;
  repo: string;
  /** Where files are fetched from: `${baseUrl}/${repo}/resolve/main/${path}`. */
  baseUrl: string;
  files: { path: string; bytes: number; sha256?: string }[];
  /** Bytes of the ONNX weights (graph + external data), read once per decoded token at most. */
  weightsBytes: number;
  /** Devices it can run on. */
  devices: ("wasm" | "webgpu")[];
  /** Why it cannot run here, when it cannot. */
  unavailable?: string;
  /** The prompt and tool-call format (default Qwen3's). */
  format?: ModelFormatId;
}

/** What one bench run is asked to do. */
export interface BenchConfig {
  model: string;
  engine: "transformers" | "web-llm";
  device: "wasm" | "webgpu";
  /** Approximate prompt length in tokens (the user message is sized to it; the real count is reported). */
  promptTokens: number;
  /** New tokens to generate (greedy). */
  outputTokens: number;
  /** Each run loads every path afresh (the first run cold, later ones warm). */
  runs: number;
  /**
   * Timed generations per path per run, after the first one (which is
   * reported apart: it pays for the engine's first-use work). Interleaved:
   * each round runs every path once, in a rotating order. Default 3.
   */
  generations?: number;
  /** Memory bandwidth in GB/s, for decode as a share of the bandwidth-bound limit. */
  bandwidthGBs?: number;
  /** Which paths to run (default all three). */
  paths?: BenchPath[];
  /**
   * ONNX Runtime WASM threads, for every path (the runtime through
   * `createLocalAdapter({ worker: { threads } })`). Default: the runtime's default,
   * `min(4, cores - 1)` where the page is cross-origin isolated (the bench
   * server sends COOP/COEP), else 1. What each path ran on is in its samples.
   */
  threads?: number;
  /**
   * Rounds of the two-step tool loop per run, on the runtime path (default
   * 1; 0 skips it): step 1, step 2 from step 1's cache, and step 2's prompt
   * prefilled fresh (a new conversation). See {@link ToolLoopSample}.
   */
  toolLoopRounds?: number;
}

/** One generation of the tool loop, through the runtime. */
export interface ToolLoopStep {
  promptTokens: number;
  /** Prompt tokens the engine took from the conversation's cache. */
  cachedPromptTokens: number;
  /** On the page: from the run call to the first streamed part of the reply, or the generation's end (its one token). */
  ttftMs: number;
  /** The engine's own (from its generate call, cache preparation included). */
  workerTtftMs: number;
  text: string;
}

/**
 * One round of the tool loop (bench/tool-loop.ts: a shop's tools, a user
 * message, one call and its result): step 1; step 2 in the same
 * conversation (the engine reuses step 1's cache); step 2's prompt again
 * as a new conversation (a fresh prefill of the same ids).
 */
export interface ToolLoopSample {
  step1: ToolLoopStep;
  reused: ToolLoopStep;
  fresh: ToolLoopStep;
  /**
   * The next user turn (the loop's answer, then a new user message): in the
   * same conversation after step 2 (Qwen3.5 starts from the state kept at the
   * turn's start), and as a new conversation (a fresh prefill).
   */
  turn2: { reused: ToolLoopStep; fresh: ToolLoopStep };
}

export interface ToolLoopSummary {
  rounds: number;
  step1PromptTokens: number;
  step2PromptTokens: number;
  cachedPromptTokens: Stat;
  reusedTtftMs: Stat;
  freshTtftMs: Stat;
  /** Step 2's TTFT with reuse / without, per round (page-side). */
  ttftRatio: Stat;
  /** The same, as the engine measured it. */
  workerTtftRatio: Stat;
  /** Step 2 wrote the same text (greedy) with reuse as without, every round. */
  sameOutput: boolean;
  /** The next user turn: its prompt, what came from the cache, its TTFT with reuse / fresh (page-side and the engine's own). */
  turn2PromptTokens: number;
  turn2CachedPromptTokens: Stat;
  turn2TtftRatio: Stat;
  turn2WorkerTtftRatio: Stat;
}

/**
 * One generation through one path, timed on the same events on every path:
 * the page's call, the engine's first token (its worker's clock read on the
 * page's: bench/shared-clock.ts), the engine's token events, and the first
 * visible text arriving on the page.
 */
export interface GenerationSample {
  /** From the page's call to the engine sampling its first token. */
  ttftMs: number;
  /** From the page's call to the first text with more than whitespace arriving on the page (what a person sees first). */
  visibleTtftMs: number;
  /** Prompt tokens / TTFT. */
  prefillTokPerS: number;
  /** (output tokens - 1) / (last token - first token), on the engine's token events (= workerDecodeTokPerS). */
  decodeTokPerS: number;
  /** (output tokens - 1) / (the generation's end on the page - the first visible text on the page). */
  pageDecodeTokPerS: number;
  /** The engine's first token on the shared clock (0: none). */
  firstTokenAt: number;
  promptTokens: number;
  outputTokens: number;
  /** The same two figures as the worker measured them (no message hop). */
  workerTtftMs: number;
  workerDecodeTokPerS: number;
  /** Main-thread long tasks (over 50 ms) during the generation. */
  longTasks: number;
  longestTaskMs: number;
  /**
   * What ran in the long animation frames over 50 ms during the generation
   * (the Long Animation Frames API's script attribution), longest first:
   * `"<ms> ms <invoker> (<source>)"`. Empty where the browser lacks the API.
   */
  longTaskScripts: string[];
  text: string;
}

/** One path in one run: a fresh worker loaded, its first generation, then the timed ones. */
export interface PathSample {
  /** `cold` for the first load of the path on the page, `warm` after. */
  loadKind: "cold" | "warm";
  /** A fresh worker: spawn, engine start, model read from the Cache API, session created. */
  loadMs: number;
  /** The first generation after the load (what a person's first message meets). */
  first: GenerationSample;
  /** The timed generations after it, in round order. */
  generations: GenerationSample[];
  /**
   * The ONNX Runtime WASM threads the path ran on, as ONNX Runtime started
   * them (it falls back to 1 where the page is not isolated); absent where
   * unknown (the runtime on WebGPU reports none).
   */
  threads?: number;
}

export interface Stat {
  median: number;
  min: number;
  max: number;
  n: number;
}

export interface PathSummary {
  loadColdMs: Stat;
  loadWarmMs: Stat;
  /** TTFT of the first generation after each load. */
  firstTtftMs: Stat;
  /** Decode tok/s of the first generation after each load. */
  firstDecodeTokPerS: Stat;
  /** Over the timed generations (not the first after a load). */
  ttftMs: Stat;
  visibleTtftMs: Stat;
  pageDecodeTokPerS: Stat;
  prefillTokPerS: Stat;
  decodeTokPerS: Stat;
  promptTokens: number;
  outputTokens: Stat;
  /** Over every generation, the first ones included. */
  longTasks: number;
  longestTaskMs: number;
  /** The distinct long-frame scripts seen (see {@link GenerationSample.longTaskScripts}). */
  longTaskScripts: string[];
  /** Decode tok/s (median) / (bandwidth / weights bytes); null without a bandwidth. */
  bandwidthShare: number | null;
  /** The distinct WASM thread counts the path's loads ran on (one, normally; empty where unknown). */
  threads: number[];
}

/**
 * runtime / raw: the median of paired ratios, each pair measured in the same
 * round (or, for loads and first generations, the same run), so slow drift
 * on a shared machine touches both sides. Below 1 for time is better, above
 * 1 for speed is better.
 */
export interface Ratios {
  /** The engine's first token. */
  ttft: number;
  /** The first visible text on the page. */
  visibleTtft: number;
  /** On the engine's token events. */
  decode: number;
  firstTtft: number;
  warmLoad: number;
  /**
   * Best against best over the timed generations: runtime's lowest TTFT /
   * raw's lowest, runtime's highest decode tok/s / raw's highest. On a
   * shared machine noise only ever adds time, so the best of many runs is
   * the steadiest estimate of each path's own cost.
   */
  bestTtft: number;
  bestDecode: number;
}

export interface BenchResult {
  version: 2;
  date: string;
  config: BenchConfig & { generations: number };
  model: { id: string; dtype: string; weightsBytes: number };
  /** The page's browser, as the capability probe sees it; `crossOriginIsolated` decides whether threads can run. */
  /** `liftoffOnly`: run with `--liftoff-only` (V8's baseline wasm compiler only), so not a person's speed; set by the CLI. */
  environment: { userAgent: string; cores: number; crossOriginIsolated: boolean; webgpu: boolean; fallbackAdapter: boolean; liftoffOnly?: boolean };
  /** The WASM threads every path was asked for (`config.threads`, or the runtime's default here). */
  threadsRequested: number;
  /** tokens/s the memory bandwidth allows: bandwidth / weights bytes; null without a bandwidth. */
  bandwidthLimitTokPerS: number | null;
  /** Each run's samples; `order` is the path order of the run's loads and first generations (the rounds rotate on from it). */
  runs: { order: BenchPath[]; samples: Partial<Record<BenchPath, PathSample>> }[];
  summary: Partial<Record<BenchPath, PathSummary>>;
  ratios: { vsTransformers?: Ratios; vsOrt?: Ratios };
  /** Every path generated the same number of tokens (greedy, same model, same prompt ids). */
  outputsAgree: boolean;
  /** The two-step tool loop on the runtime path (absent with `--tool-loop 0` or without the runtime path). */
  toolLoop?: { samples: ToolLoopSample[]; summary: ToolLoopSummary };
  /** The zero-cost path (bench/zero-cost/): the runtime's own cost per token, without a model. */
  zeroCost?: ZeroCostResult;
  /** With `npm run bench -- --trace`: the page's main-thread long tasks, from a Chromium trace. */
  trace?: { file: string; longTasks: TracedLongTask[] };
}
