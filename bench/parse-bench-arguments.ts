import { DEFAULT_BENCH_MODEL, type BenchConfig } from "./bench-types.js";
import { parseSharedBenchArguments, SHARED_BENCH_MODELS, SHARED_BENCH_SECTIONS } from "./shared-engine/parse-shared-bench-arguments.js";

export interface BenchCliOptions {
  config: BenchConfig;
  /** Launch Chromium with --enable-unsafe-webgpu (SwiftShader here, the real GPU elsewhere). */
  webgpu: boolean;
  /** Where the JSON and SVG go (default bench/results). */
  outDir?: string;
  /** Record a Chromium trace of the run and attribute the page's long tasks from it. */
  trace: boolean;
  /**
   * V8's baseline WebAssembly compiler only (no optimizing tier): loads start
   * sooner and generation runs slower than in a person's browser. For a run
   * that checks the bench works, not for figures (the suite's smoke run).
   */
  liftoffOnly: boolean;
  /** A Chromium profile folder to keep the model cache in between invocations (default: a temporary one). */
  profile?: string;
  /** The zero-cost path's rates in tokens per second (0: as fast as it can); null skips it. */
  zeroCostRates: number[] | null;
  /** Only the zero-cost path (no model loaded). */
  zeroCostOnly: boolean;
  /**
   * The shared-engine figures' arguments (bench/shared-engine/), run after the
   * model's paths in a process of their own; null skips them.
   */
  sharedArgs: string[] | null;
}

export const BENCH_USAGE = `npm run bench -- [options]
  --model <id>        a built test model (tiny, scripted, qwen3-0.6b-shaped-q8 …) or a catalog id (qwen3-0.6b/wasm-q8). Default tiny-text:
                      tiny, its reply opened with a word so that it writes visible text (bench/visible-text-model.ts)
  --engine <name>     transformers (default) | web-llm (reported unavailable where it cannot run)
  --device <name>     wasm (default) | webgpu
  --runs <n>          loads of every path, each in a fresh worker (default 3; the first is cold)
  --generations <n>   timed generations per path per run, after the first (default 3); interleaved
  --prompt <n>        prompt length in tokens, about (default 128)
  --output <n>        tokens to generate (default 64)
  --bandwidth <GB/s>  memory bandwidth, for decode as a share of the bandwidth-bound limit
  --paths <a,b>       runtime,transformers,ort (default all three)
  --threads <n>       ONNX Runtime WASM threads for every path (default the runtime's: min(4, cores - 1)
                      on this cross-origin isolated page); each path reports what it ran on
  --tool-loop <n>     rounds of the two-step tool loop per run on the runtime path (default 1, 0 skips):
                      step 2's time to first token from step 1's cache against a fresh prefill of it
  --webgpu            launch Chromium with --enable-unsafe-webgpu (implied by --device webgpu)
  --liftoff-only      V8's baseline wasm compiler only: a quicker run whose figures are not a person's speed
  --trace             record a Chromium trace (<name>.trace.json) and print each main-thread task
                      over 50 ms with its CPU time and garbage collection
  --zero-cost <r,…>   the zero-cost path's rates in tok/s, max for as fast as it can (default 250,1000,2000,4000,8000,max;
                      none skips it): a scripted engine through the real worker, parser, session and <AgentChat>
  --zero-cost-only    only the zero-cost path
  --shared <a,b>      after the model's paths, worker.shared's figures: ${SHARED_BENCH_SECTIONS.join(", ")} (default all; none
                      skips them): page load to ready, two tabs' memory, a turn across two pages; the dedicated
                      worker against the shared one, each run in a fresh browser (as npm run bench:shared)
  --shared-runs <n>   runs per shared-engine figure (default 5; medians)
  --shared-models <a,b> ${SHARED_BENCH_MODELS.join(", ")} (default test-tiny,test-scripted)
  --out <dir>         where to write the JSON and SVG (default bench/results)
  --profile <dir>     keep the browser profile (and the model cache) there`;

/** Parses the CLI's arguments; throws with the usage on a bad one. */
export function parseBenchArguments(argv: readonly string[]): BenchCliOptions {
  const values = new Map<string, string>();
  const flags = new Set<string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith("--")) throw new Error(`Unexpected argument "${arg}".\n${BENCH_USAGE}`);
    const [name, inline] = arg.slice(2).split("=", 2) as [string, string | undefined];
    if (name === "webgpu" || name === "trace" || name === "help" || name === "zero-cost-only" || name === "liftoff-only") flags.add(name);
    else if (inline !== undefined) values.set(name, inline);
    else if (argv[i + 1] !== undefined) values.set(name, argv[++i]!);
    else throw new Error(`--${name} needs a value.\n${BENCH_USAGE}`);
  }
  if (flags.has("help")) throw new Error(BENCH_USAGE);
  const known = ["model", "engine", "device", "runs", "generations", "prompt", "output", "bandwidth", "paths", "threads", "tool-loop", "out", "profile", "zero-cost", "shared", "shared-runs", "shared-models"];
  for (const name of values.keys()) if (!known.includes(name)) throw new Error(`Unknown option --${name}.\n${BENCH_USAGE}`);
  const int = (name: string, fallback: number, min: number) => {
    const raw = values.get(name);
    const value = raw === undefined ? fallback : Number(raw);
    if (!Number.isInteger(value) || value < min) throw new Error(`--${name} must be an integer of at least ${min}.`);
    return value;
  };
  const engine = values.get("engine") ?? "transformers";
  const device = values.get("device") ?? "wasm";
  if (engine !== "transformers" && engine !== "web-llm") throw new Error(`--engine must be transformers or web-llm.`);
  if (device !== "wasm" && device !== "webgpu") throw new Error(`--device must be wasm or webgpu.`);
  const bandwidth = values.has("bandwidth") ? Number(values.get("bandwidth")) : undefined;
  if (bandwidth !== undefined && !(bandwidth > 0)) throw new Error("--bandwidth must be a positive number of GB/s.");
  const paths = values.get("paths")?.split(",") as BenchConfig["paths"];
  if (paths?.some((path) => !["runtime", "transformers", "ort"].includes(path))) throw new Error("--paths takes runtime, transformers, ort.");
  const zeroCost = values.get("zero-cost") ?? "250,1000,2000,4000,8000,max";
  const zeroCostRates = zeroCost === "none" ? null : zeroCost.split(",").map((rate) => (rate === "max" ? 0 : Number(rate)));
  if (zeroCostRates?.some((rate) => !Number.isInteger(rate) || rate < 0)) throw new Error("--zero-cost takes rates in tokens per second, max, or none.");
  if (flags.has("zero-cost-only") && !zeroCostRates) throw new Error("--zero-cost-only needs rates.");
  const shared = values.get("shared") ?? SHARED_BENCH_SECTIONS.join(",");
  let sharedArgs: string[] | null = null;
  if (shared !== "none" && !flags.has("zero-cost-only")) {
    sharedArgs = ["--sections", shared];
    if (values.has("shared-runs")) sharedArgs.push("--runs", values.get("shared-runs")!);
    if (values.has("shared-models")) sharedArgs.push("--models", values.get("shared-models")!);
    // Refused here, before the model's paths run, rather than minutes later.
    try {
      parseSharedBenchArguments(sharedArgs);
    } catch (error) {
      const reason = (error as Error).message.split("\n")[0]!;
      const named = reason.replace(/^--sections/, "--shared").replace(/^--runs/, "--shared-runs").replace(/^--models/, "--shared-models");
      throw new Error(`${named}\n${BENCH_USAGE}`);
    }
  } else if (values.has("shared-runs") || values.has("shared-models")) {
    throw new Error("--shared-runs and --shared-models need the shared-engine figures (--shared is none or --zero-cost-only is set).");
  }
  const config: BenchConfig = {
    model: values.get("model") ?? DEFAULT_BENCH_MODEL,
    engine,
    device,
    runs: int("runs", 3, 1),
    generations: int("generations", 3, 1),
    promptTokens: int("prompt", 128, 1),
    outputTokens: int("output", 64, 2),
    ...(bandwidth !== undefined && { bandwidthGBs: bandwidth }),
    ...(paths && { paths }),
    ...(values.has("threads") && { threads: int("threads", 1, 1) }),
    ...(values.has("tool-loop") && { toolLoopRounds: int("tool-loop", 1, 0) }),
  };
  return {
    config,
    webgpu: flags.has("webgpu") || device === "webgpu",
    trace: flags.has("trace"),
    liftoffOnly: flags.has("liftoff-only"),
    zeroCostRates,
    zeroCostOnly: flags.has("zero-cost-only"),
    sharedArgs,
    ...(values.has("out") && { outDir: values.get("out")! }),
    ...(values.has("profile") && { profile: values.get("profile")! }),
  };
}
