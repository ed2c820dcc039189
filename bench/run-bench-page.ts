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
import { createLocalAdapter, QWEN3_CATALOG, type AgentMessage, type CatalogEntry } from "@webmcp-agents/chat/runtime";
import { probeCapabilities } from "../worker/capability-probe.js";
import { createEngineClient, type EngineClient } from "../worker/engine-client.js";
import type { DeviceCapabilities, EngineHost, GenerationUsage, StepRequest, ModelSource, TemplateMessage } from "../worker/protocol.js";
import { defaultWasmThreads } from "../worker/wasm-threads.js";
import { stepPrompt } from "../worker/step-prompt.js";
import type { BareModelArgs } from "./bare-ort-worker.js";
import { BENCH_PATHS, type BenchConfig, type BenchModel, type BenchPath, type BenchResult, type GenerationSample, type PathSample, type ToolLoopSample, type ToolLoopStep } from "./bench-types.js";
import { longTaskRecorder, type LongTaskRecord } from "./long-task-recorder.js";
import type { RawModelArgs } from "./raw-transformers-worker.js";
import { stat, summarize, summarizeToolLoop } from "./summarize.js";
import { BENCH_TOOLS, toolLoopMessages } from "./tool-loop.js";
import { callWorker } from "./worker-rpc.js";

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

const spawnEngine = (): EngineClient => createEngineClient({ spawn: () => new Worker(new URL("../worker/engine-worker.ts", import.meta.url), { type: "module" }) });
const spawnTransformers = () => new Worker(new URL("./raw-transformers-worker.ts", import.meta.url), { type: "module" });
const spawnOrt = () => new Worker(new URL("./bare-ort-worker.ts", import.meta.url), { type: "module" });
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A user message of about `tokens` tokens (Qwen's tokenizer: about one token per short word). */
function promptText(tokens: number): string {
  const words = ["the", "cart", "holds", "two", "pairs", "of", "blue", "socks", "and", "a", "red", "hat", "please", "check", "order", "status"];
  const count = Math.max(1, tokens - 12);
  return `Summarise this: ${Array.from({ length: count }, (_, i) => words[i % words.length]).join(" ")}.`;
}

interface Generated {
  promptTokens: number;
  outputTokens: number;
  text: string;
  workerTtftMs: number;
  workerDecodeTokPerS: number;
}

/** Page-side timing of one generation: `first` is when output first arrived. */
function generationSample(started: number, first: number | undefined, ended: number, generated: Generated, tasks: LongTaskRecord): GenerationSample {
  const ttftMs = (first ?? ended) - started;
  const decodeSeconds = first === undefined ? 0 : (ended - first) / 1000;
  return {
    ttftMs,
    prefillTokPerS: ttftMs > 0 ? generated.promptTokens / (ttftMs / 1000) : 0,
    decodeTokPerS: decodeSeconds > 0 ? (generated.outputTokens - 1) / decodeSeconds : 0,
    ...generated,
    ...tasks,
  };
}

/** A path loaded in a fresh worker, ready to generate again and again. */
interface LoadedPath {
  loadMs: number;
  generate(): Promise<GenerationSample>;
  /** The WASM threads ONNX Runtime started with, once known (the runtime's after its first generation). */
  threads(): number | undefined;
  /** The runtime's two-step tool loop (bench/tool-loop.ts); the runtime path only. */
  toolLoop?(): Promise<ToolLoopSample>;
  terminate(): void;
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
            `${(sample.reused.ttftMs / sample.fresh.ttftMs).toFixed(3)}x`,
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

/** The template messages the runtime sends its engine for this prompt, caught by an engine that generates nothing. */
async function captureTemplateMessages(entry: CatalogEntry, userMessage: AgentMessage, maxNewTokens: number): Promise<TemplateMessage[]> {
  let captured: StepRequest | undefined;
  const catcher: EngineHost = {
    probe: probeCapabilities,
    cacheStatus: async () => ({ cached: true }),
    download: async () => {},
    load: async () => {},
    generate: async (request, onEvent) => {
      captured = request;
      onEvent({ type: "end", reason: "stop" });
    },
    cancel: async () => {},
    deleteModel: async () => {},
  };
  const adapter = createLocalAdapter({ catalog: { models: [entry], model: entry.id, autoLoad: false }, worker: { host: catcher }, generation: { maxNewTokens, temperature: 0 } });
  for await (const _part of adapter.run({ messages: [userMessage], tools: [], signal: new AbortController().signal, callTool: async () => ({ content: [] }) as never })) {
    // drain
  }
  if (!captured) throw new Error("The runtime sent no generation to its engine.");
  return stepPrompt(captured).messages;
}

/** The runtime path: `createLocalAdapter` over the real engine worker; each generation is a new conversation (no KV reuse). */
async function loadRuntime(entry: CatalogEntry, userText: string, config: BenchConfig, threads: number): Promise<LoadedPath> {
  const client = spawnEngine();
  let usage: GenerationUsage | undefined;
  /** When the page got the usage event (the generation's end). */
  let usageAt = 0;
  let ranOn: number | undefined;
  // Only to read the usage the engine reports; every call passes straight through.
  const engine: EngineHost = {
    ...client,
    generate: (request, onEvent) =>
      client.generate(request, (event) => {
        if (event.type === "usage") {
          usage = event.usage;
          usageAt = performance.now();
          ranOn = event.usage.threads;
        }
        onEvent(event);
      }),
  };
  try {
    const adapter = createLocalAdapter({ catalog: { models: [entry], model: entry.id, autoLoad: false }, worker: { host: engine, threads }, generation: { maxNewTokens: config.outputTokens, temperature: 0 } });
    const loadStarted = performance.now();
    await adapter.prepare();
    const loadMs = performance.now() - loadStarted;
    let count = 0;
    const generate = async (): Promise<GenerationSample> => {
      // A new first message id is a new conversation: the engine keeps no KV cache for it.
      const userMessage: AgentMessage = { id: `bench-user-${++count}`, role: "user", parts: [{ type: "text", text: userText }] };
      usage = undefined;
      const recorder = longTaskRecorder();
      recorder.start();
      const started = performance.now();
      let first: number | undefined;
      let text = "";
      let error: string | undefined;
      for await (const part of adapter.run({ messages: [userMessage], tools: [], signal: new AbortController().signal, callTool: async () => ({ content: [] }) as never })) {
        if (part.type === "text-delta") {
          first ??= performance.now();
          text += part.delta;
        } else if (part.type === "error") error = part.error;
      }
      const ended = performance.now();
      const tasks = recorder.stop();
      if (error) throw new Error(`runtime: ${error}`);
      const reported = usage as GenerationUsage | undefined;
      if (!reported) throw new Error("runtime: the engine reported no usage");
      if (reported.cachedPromptTokens > 0) throw new Error("runtime: the engine reused a KV cache; the bench's generations must start fresh");
      return generationSample(started, first, ended, {
        promptTokens: reported.promptTokens,
        outputTokens: reported.outputTokens,
        text,
        workerTtftMs: reported.timeToFirstTokenMs,
        workerDecodeTokPerS: reported.decodeTokensPerSecond,
      }, tasks);
    };

    // The tool loop: one output token, its time to first token is the figure. (With more, the
    // format's parser may hold back a random-weight model's leading whitespace until the end.)
    const loopAdapter = createLocalAdapter({ catalog: { models: [entry], model: entry.id, autoLoad: false }, worker: { host: engine, threads }, generation: { maxNewTokens: 1, temperature: 0 } });
    await loopAdapter.prepare();
    const loopStep = async (messages: AgentMessage[]): Promise<ToolLoopStep> => {
      usage = undefined;
      let first: number | undefined;
      let text = "";
      let error: string | undefined;
      let reported: GenerationUsage | undefined;
      const started = performance.now();
      for await (const part of loopAdapter.run({ messages, tools: BENCH_TOOLS, signal: new AbortController().signal, callTool: async () => ({ content: [] }) as never })) {
        // The first step's reply only (a random-weight model could write a call, and the loop go on).
        if (!reported && usage) {
          reported = usage;
          first ??= usageAt;
        }
        if (reported) continue;
        if (part.type === "text-delta" || part.type === "reasoning" || part.type === "tool-call") first ??= performance.now();
        if (part.type === "text-delta") text += part.delta;
        else if (part.type === "error") error = part.error;
      }
      if (error) throw new Error(`runtime tool loop: ${error}`);
      if (!reported && usage) {
        reported = usage;
        first ??= usageAt;
      }
      if (!reported) throw new Error("runtime tool loop: the engine reported no usage");
      return { promptTokens: reported.promptTokens, cachedPromptTokens: reported.cachedPromptTokens, ttftMs: (first ?? performance.now()) - started, workerTtftMs: reported.timeToFirstTokenMs, text };
    };
    let loops = 0;
    const toolLoop = async (): Promise<ToolLoopSample> => {
      const id = `bench-loop-${++loops}`;
      const { step1, step2 } = toolLoopMessages(id, userText);
      const first = await loopStep(step1);
      // The same first message id: the same conversation, so the engine starts from step 1's cache.
      const reused = await loopStep(step2);
      // Another first message id: a new conversation, the same prompt ids, prefilled from scratch.
      const fresh = await loopStep(toolLoopMessages(`${id}-fresh`, userText).step2);
      return { step1: first, reused, fresh };
    };
    return { loadMs, generate, threads: () => ranOn, toolLoop, terminate: () => client.terminate() };
  } catch (error) {
    client.terminate();
    throw error;
  }
}

/** A raw path: its worker's `load`, then `generate` as often as asked. */
async function loadWorker(worker: Worker, loadArgs: unknown, generateArgs: unknown): Promise<LoadedPath> {
  try {
    const loadStarted = performance.now();
    const loadedWith = await callWorker<{ stages?: Record<string, number>; threads?: number } | undefined>(worker, "load", loadArgs);
    const loadMs = performance.now() - loadStarted;
    if (loadedWith?.stages) console.log(`[bench] load stages: ${Object.entries(loadedWith.stages).map(([k, v]) => `${k} ${v.toFixed(0)}`).join(", ")}`);
    const generate = async (): Promise<GenerationSample> => {
      const recorder = longTaskRecorder();
      recorder.start();
      const started = performance.now();
      let first: number | undefined;
      const generated = await callWorker<Generated>(worker, "generate", generateArgs, (event: { text: string }) => {
        if (event.text) first ??= performance.now();
      });
      const ended = performance.now();
      return generationSample(started, first, ended, generated, recorder.stop());
    };
    return { loadMs, generate, threads: () => loadedWith?.threads, terminate: () => worker.terminate() };
  } catch (error) {
    worker.terminate();
    throw error;
  }
}
