/**
 * The bench, on the page: for one model, engine and device, runs the three
 * paths interleaved (the order rotates each run), each in a fresh worker:
 *
 * - `runtime`: `createLocalAdapter({ worker: { host } })` over the real engine worker
 *   client (`createEngineClient` + worker/engine-worker.ts), timed around
 *   `adapter.prepare()` and `adapter.run()`;
 * - `transformers`: transformers.js directly in bench/raw-transformers-worker.ts;
 * - `ort`: a bare onnxruntime-web loop in bench/bare-ort-worker.ts.
 *
 * All three read the same files from the same Cache API entries (downloaded
 * once before anything is timed) and get the same prompt: the template
 * messages the runtime sends its engine, captured first.
 */
// The runtime path goes through the package's public entry, as a site's page does; the baselines
// (raw transformers.js, bare ONNX Runtime) and the probe reach the worker's internals on purpose.
import { QWEN3_CATALOG, type CatalogEntry } from "@webmcp-agents/chat/runtime";
import { probeCapabilities } from "../worker/capability-probe.js";
import type { DeviceCapabilities, ModelSource } from "../worker/protocol.js";
import { defaultWasmThreads } from "../worker/wasm-threads.js";
import type { BareModelArgs } from "./bare-ort-worker.js";
import { BENCH_PATHS, type BenchConfig, type BenchModel, type BenchPath, type BenchResult, type GenerationSample, type PathSample, type ToolLoopSample } from "./bench-types.js";
import type { RawModelArgs } from "./raw-transformers-worker.js";
import { stat, summarize, summarizeToolLoop } from "./summarize.js";
import { loadWorker, type LoadedPath } from "./loaded-path.js";
import { callWorker } from "./worker-rpc.js";
import { captureTemplateMessages, loadRuntime, spawnEngine } from "./runtime-path.js";

const TEST_BASE = "/models/test";
const HUB = "https://huggingface.co";

const weightsOf = (files: { path: string; bytes: number }[]) => files.filter((file) => /\.onnx(_data)?$/.test(file.path)).reduce((total, file) => total + file.bytes, 0);

/** The models: those built under .cache/models (served by the bench's Vite server), then the catalog's transformers.js variants. */
export async function listModels(): Promise<BenchModel[]> {
  const built = (await fetch("/bench-models.json").then((r) => (r.ok ? r.json() : []), () => [])) as { id: string; dtype: string; files: BenchModel["files"]; format?: BenchModel["format"] }[];
  const models: BenchModel[] = built.map((m) => ({
    id: m.id,
    label: `${m.id} (test model, ${m.dtype}, ${(weightsOf(m.files) / 1e6).toFixed(1)} MB)`,
    dtype: m.dtype,
    repo: m.id,
    baseUrl: TEST_BASE,
    files: m.files.filter((f) => f.path !== "manifest.json"),
    weightsBytes: weightsOf(m.files),
    devices: ["wasm", "webgpu"],
    ...(m.format && { format: m.format }),
  }));
  for (const entry of QWEN3_CATALOG) {
    for (const variant of entry.variants) {
      if (variant.engine !== "transformers") continue;
      models.push({
        id: `${entry.id}/${variant.id}`,
        label: `${entry.label} ${variant.dtype} on ${variant.device} (catalog, ~${(variant.bytes / 1e6).toFixed(0)} MB)`,
        dtype: variant.dtype,
        repo: variant.repo,
        baseUrl: entry.baseUrl ?? HUB,
        files: variant.files,
        weightsBytes: weightsOf(variant.files),
        devices: [variant.device],
        ...(entry.format && { format: entry.format }),
      });
    }
  }
  return models;
}

/** Whether the catalog models' files can be reached (no network here): one HEAD per repo, 3 s each. */
export async function checkReachable(models: BenchModel[]): Promise<void> {
  const byRepo = new Map<string, Promise<string | undefined>>();
  await Promise.all(
    models.map(async (model) => {
      if (model.baseUrl === TEST_BASE) return;
      const url = `${model.baseUrl}/${model.repo}/resolve/main/config.json`;
      if (!byRepo.has(url)) {
        byRepo.set(
          url,
          fetch(url, { method: "HEAD", signal: AbortSignal.timeout(3000) }).then(
            (r) => (r.ok ? undefined : `its files are not reachable (HTTP ${r.status} from ${model.baseUrl})`),
            () => `its files are not reachable from this browser (${model.baseUrl}: no network?)`,
          ),
        );
      }
      const reason = await byRepo.get(url);
      if (reason) model.unavailable = reason;
    }),
  );
}

/** Why web-llm cannot run here (it needs WebGPU, MLC model libraries and MLC weights). */
export function webLlmUnavailable(capabilities: DeviceCapabilities): string {
  if (!capabilities.webgpu) return "web-llm needs WebGPU, and this browser has no WebGPU adapter.";
  if (capabilities.fallbackAdapter) return "web-llm needs a hardware GPU; this WebGPU adapter is a software fallback (SwiftShader). Its MLC model libraries and weights are also not served here.";
  return "web-llm needs MLC-compiled model libraries and MLC weights, which this bench does not serve (no network here); its baseline is not built yet.";
}

function catalogEntry(model: BenchModel, device: BenchConfig["device"]): CatalogEntry {
  return {
    id: model.id.replace(/[^a-z0-9._-]/gi, "-"),
    label: model.label,
    brief: "bench",
    parameters: 1,
    testModel: true,
    baseUrl: model.baseUrl,
    ...(model.format && { format: model.format }),
    variants: [
      {
        id: `${device}-${model.dtype}`,
        engine: "transformers",
        device,
        dtype: model.dtype,
        repo: model.repo,
        requiresShaderF16: false,
        files: model.files.map(({ path, bytes }) => ({ path, bytes })),
        bytes: model.files.reduce((total, file) => total + file.bytes, 0),
      },
    ],
  };
}

function sourceOf(entry: CatalogEntry): ModelSource {
  const variant = entry.variants[0]!;
  return {
    key: `${entry.id}/${variant.id}`,
    engine: "transformers",
    device: variant.device,
    dtype: variant.dtype,
    repo: variant.repo,
    baseUrl: entry.baseUrl!,
    files: variant.files.map(({ path, bytes }) => ({ path, bytes })),
    ...(entry.format && { format: entry.format }),
  };
}

const spawnTransformers = () => new Worker(new URL("./raw-transformers-worker.ts", import.meta.url), { type: "module" });
const spawnOrt = () => new Worker(new URL("./bare-ort-worker.ts", import.meta.url), { type: "module" });
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A user message of about `tokens` tokens (Qwen's tokenizer: about one token per short word). */
function promptText(tokens: number): string {
  const words = ["the", "cart", "holds", "two", "pairs", "of", "blue", "socks", "and", "a", "red", "hat", "please", "check", "order", "status"];
  const count = Math.max(1, tokens - 12);
  return `Summarise this: ${Array.from({ length: count }, (_, i) => words[i % words.length]).join(" ")}.`;
}

export type BenchLog = (line: string) => void;

/** One generation, marked `bench:<path>` for a trace (`npm run bench -- --trace`) to tell whose it was. */
async function marked(path: BenchPath, loaded: LoadedPath): Promise<GenerationSample> {
  const start = performance.now();
  try {
    return await loaded.generate();
  } finally {
    performance.measure(`bench:${path}`, { start, end: performance.now() });
    performance.clearMeasures(`bench:${path}`);
  }
}

const rotate = <T>(items: readonly T[], by: number): T[] => items.map((_, i) => items[(i + by) % items.length]!);
const median = (values: number[]) => stat(values).median;

/**
 * Runs the bench for `config` and returns the result (what `npm run bench`
 * writes). Each run loads every path in a fresh worker (all three stay
 * loaded: three copies of the model in memory), then generates: once per
 * path (the first generation, reported apart), then `generations` rounds of
 * one generation per path, the order rotating each round.
 */
export async function runBench(config: BenchConfig, log: BenchLog = () => {}): Promise<BenchResult> {
  if (config.engine !== "transformers") throw new Error(webLlmUnavailable(await probeCapabilities()));
  const capabilities = await probeCapabilities();
  if (config.device === "webgpu" && !capabilities.webgpu) throw new Error("This browser has no WebGPU adapter (headless Chromium needs --enable-unsafe-webgpu; npm run bench -- --webgpu).");
  const models = await listModels();
  const model = models.find((m) => m.id === config.model);
  if (!model) throw new Error(`No model "${config.model}". Known: ${models.map((m) => m.id).join(", ")}`);
  const generations = config.generations ?? 3;
  if (!Number.isInteger(generations) || generations < 1) throw new Error("generations must be an integer of at least 1.");
  const entry = catalogEntry(model, config.device);
  const source = sourceOf(entry);
  // Every path gets the same count: the runtime's own default unless one is asked for.
  const threads = config.threads ?? defaultWasmThreads(capabilities);
  const onnx = model.files.find((f) => f.path.endsWith(".onnx"))!;
  const data = model.files.find((f) => f.path === `${onnx.path}_data`);
  const rawArgs: RawModelArgs = { repo: model.repo, baseUrl: model.baseUrl, dtype: model.dtype, device: config.device, threads };
  const bareArgs: BareModelArgs = { repo: model.repo, baseUrl: model.baseUrl, device: config.device, threads, onnxPath: onnx.path, ...(data && { dataPath: data.path }) };

  // Not timed: the download into the Cache API, the prompt the runtime sends, its token ids.
  const setup = spawnEngine();
  try {
    if (!(await setup.cacheStatus(source)).cached) {
      log(`downloading ${model.id} into the Cache API (not timed)`);
      await setup.download("bench-download", source, () => {});
    }
  } finally {
    setup.terminate();
  }
  const userText = promptText(config.promptTokens);
  const messages = await captureTemplateMessages(entry, { id: "bench-user", role: "user", parts: [{ type: "text", text: userText }] }, config.outputTokens);
  const tokenizerWorker = spawnTransformers();
  const ids = await callWorker<void>(tokenizerWorker, "loadTokenizer", rawArgs).then(() => callWorker<number[]>(tokenizerWorker, "tokenize", { messages }));
  tokenizerWorker.terminate();
  log(`prompt: ${ids.length} tokens; output: ${config.outputTokens} tokens; ${config.runs} runs x ${generations} timed generations`);
  log(`WASM threads: ${threads} asked for; the page is ${capabilities.crossOriginIsolated ? "" : "not "}cross-origin isolated; ${capabilities.cores} cores`);

  const load = (path: BenchPath): Promise<LoadedPath> =>
    path === "runtime"
      ? loadRuntime(entry, userText, config, threads)
      : path === "transformers"
        ? loadWorker(spawnTransformers(), rawArgs, { messages, maxNewTokens: config.outputTokens })
        : loadWorker(spawnOrt(), bareArgs, { ids, maxNewTokens: config.outputTokens });

  const paths = config.paths ?? [...BENCH_PATHS];
  const toolLoopRounds = paths.includes("runtime") ? (config.toolLoopRounds ?? 1) : 0;
  const toolLoop: ToolLoopSample[] = [];
  const runs: BenchResult["runs"] = [];
  for (let run = 0; run < config.runs; run++) {
    const order = rotate(paths, run);
    const loaded: Partial<Record<BenchPath, LoadedPath>> = {};
    const samples: Partial<Record<BenchPath, PathSample>> = {};
    try {
      for (const path of order) {
        await pause(100);
        loaded[path] = await load(path);
      }
      for (const path of order) {
        await pause(100);
        const first = await marked(path, loaded[path]!);
        const ranOn = loaded[path]!.threads();
        samples[path] = { loadKind: run === 0 ? "cold" : "warm", loadMs: loaded[path]!.loadMs, first, generations: [], ...(ranOn !== undefined && { threads: ranOn }) };
      }
      for (let round = 0; round < generations; round++) {
        for (const path of rotate(paths, run + round + 1)) {
          await pause(50);
          samples[path]!.generations.push(await marked(path, loaded[path]!));
        }
      }
      for (let round = 0; round < toolLoopRounds; round++) {
        await pause(50);
        const sample = await loaded.runtime!.toolLoop!();
        toolLoop.push(sample);
        log(
          `run ${run + 1}/${config.runs} tool loop ${round + 1}/${toolLoopRounds}: step 1 ${sample.step1.promptTokens} tokens, TTFT ${sample.step1.ttftMs.toFixed(0)} ms; ` +
            `step 2 ${sample.reused.promptTokens} tokens (${sample.reused.cachedPromptTokens} cached) TTFT ${sample.reused.ttftMs.toFixed(0)} ms, fresh ${sample.fresh.ttftMs.toFixed(0)} ms: ` +
            `${(sample.reused.ttftMs / sample.fresh.ttftMs).toFixed(3)}x; next user turn ${sample.turn2.reused.promptTokens} tokens (${sample.turn2.reused.cachedPromptTokens} cached) ` +
            `TTFT ${sample.turn2.reused.ttftMs.toFixed(0)} ms, fresh ${sample.turn2.fresh.ttftMs.toFixed(0)} ms: ${(sample.turn2.reused.ttftMs / sample.turn2.fresh.ttftMs).toFixed(3)}x`,
        );
      }
    } finally {
      for (const path of paths) loaded[path]?.terminate();
    }
    for (const path of order) {
      const s = samples[path]!;
      log(
        `run ${run + 1}/${config.runs} ${path} (${s.threads ?? "?"} threads): load ${s.loadMs.toFixed(0)} ms; first generation TTFT ${s.first.ttftMs.toFixed(0)} ms, decode ${s.first.decodeTokPerS.toFixed(1)} tok/s; ` +
          `then TTFT ${median(s.generations.map((g) => g.ttftMs)).toFixed(0)} ms, decode ${median(s.generations.map((g) => g.decodeTokPerS)).toFixed(1)} tok/s (medians, ${s.first.outputTokens} tokens); ` +
          `long tasks ${[s.first, ...s.generations].reduce((n, g) => n + g.longTasks, 0)}`,
      );
    }
    runs.push({ order, samples });
  }
  return summarize({
    version: 2,
    date: new Date().toISOString(),
    config: { ...config, generations, paths },
    model: { id: model.id, dtype: model.dtype, weightsBytes: model.weightsBytes },
    environment: {
      userAgent: navigator.userAgent,
      cores: capabilities.cores,
      crossOriginIsolated: capabilities.crossOriginIsolated,
      webgpu: capabilities.webgpu,
      fallbackAdapter: capabilities.fallbackAdapter,
    },
    threadsRequested: threads,
    runs,
    ...(toolLoop.length > 0 && { toolLoop: { samples: toolLoop, summary: summarizeToolLoop(toolLoop) } }),
  });
}
