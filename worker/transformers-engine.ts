import { EngineError, toEngineError } from "./engine-error.js";
import type { ModelEngine } from "./model-engine.js";
import { absoluteBaseUrl, MODEL_CACHE_NAME } from "./model-file-url.js";
import { modelFormat } from "../models/model-formats.js";
import type { GenerateRequest, LoadProgress, ModelSource, RawEngineEvent } from "./protocol.js";
import type { ToolDescriptor } from "../runtime/session/tool-descriptor.js";
import { wasmThreadsFor } from "./wasm-threads.js";

type Transformers = typeof import("@huggingface/transformers");
type Tokenizer = Awaited<ReturnType<Transformers["AutoTokenizer"]["from_pretrained"]>>;
type CausalModel = Awaited<ReturnType<Transformers["AutoModelForCausalLM"]["from_pretrained"]>>;

/** Options for {@link TransformersEngine}. */
export interface TransformersEngineOptions {
  /**
   * Load from a folder holding `<repo>/config.json`, `<repo>/onnx/…` instead
   * of the Cache API (Node and tests). Default: the browser's Cache API,
   * filled by `downloadModel`.
   */
  localModelPath?: string;
  /**
   * ONNX Runtime's wasm files, served by the site (never a CDN): URLs of
   * `ort-wasm-simd-threaded.asyncify.mjs` and `.wasm` from `onnxruntime-web`.
   * Required in the browser; ignored in Node.
   */
  wasmPaths?: { mjs: string; wasm: string };
  /** The Cache API cache holding model files (default {@link MODEL_CACHE_NAME}). */
  cacheName?: string;
  /** How transformers.js is loaded (default a dynamic import, so it loads only when a model does). */
  importTransformers?: () => Promise<Transformers>;
}

interface LoadedModel {
  key: string;
  tokenizer: Tokenizer;
  model: CausalModel;
}

const isNode = typeof process !== "undefined" && !!process.versions?.node && typeof window === "undefined";

let taskChannel: { port: MessagePort; waiting: (() => void)[] } | undefined;

/**
 * Resolves in a new task, not a microtask. ONNX Runtime's WASM run resolves
 * through microtasks only, so a generation loop never yields to the worker's
 * event loop: a `cancel` message would wait until the whole generation ended.
 * Awaiting this before every forward pass lets it land between tokens.
 * (One MessageChannel kept for it, not setTimeout: no 4 ms clamp, and no new
 * channel per token. In Node, `setImmediate`: an open port would keep Node alive.)
 */
function nextTask(): Promise<void> {
  if (typeof setImmediate === "function" && isNode) return new Promise((resolve) => setImmediate(resolve));
  if (!taskChannel) {
    const { port1, port2 } = new MessageChannel();
    const channel = { port: port2, waiting: [] as (() => void)[] };
    port1.onmessage = () => channel.waiting.shift()?.();
    taskChannel = channel;
  }
  const channel = taskChannel;
  return new Promise((resolve) => {
    channel.waiting.push(resolve);
    channel.port.postMessage(null);
  });
}

/** A tensor as transformers.js holds it (CPU data for reuse). */
interface CacheTensor {
  type: string;
  dims: number[];
  data: ArrayLike<unknown> & { subarray(start: number, end: number): ArrayLike<unknown> };
  location?: string;
}

/** One conversation's token ids and the KV cache that covers them, for one model. */
interface ConversationCache {
  modelKey: string;
  tokens: bigint[];
  entries: Record<string, CacheTensor>;
}

/** How many conversations keep a KV cache (the oldest is dropped). */
const MAX_CONVERSATIONS = 4;

/**
 * The cache cut to its first `length` positions: `[batch, heads, seq, dim]`
 * copied per head with `TypedArray.set` (Tensor.slice is ~30x slower).
 * `undefined` when a tensor is not in CPU memory (WebGPU): no reuse then.
 */
function cropCache(library: Transformers, entries: Record<string, CacheTensor>, length: number): unknown {
  const cropped: Record<string, unknown> = {};
  for (const [name, tensor] of Object.entries(entries)) {
    if ((tensor.location ?? "cpu") !== "cpu" || tensor.dims.length !== 4) return undefined;
    const [batch, heads, seq, dim] = tensor.dims as [number, number, number, number];
    const Data = tensor.data.constructor as new (length: number) => { set(source: ArrayLike<unknown>, offset: number): void };
    const data = new Data(batch * heads * length * dim);
    for (let row = 0; row < batch * heads; row++) {
      data.set(tensor.data.subarray(row * seq * dim, row * seq * dim + length * dim), row * length * dim);
    }
    cropped[name] = new library.Tensor(tensor.type as never, data as never, [batch, heads, length, dim]);
  }
  return new library.DynamicCache(cropped as never);
}

/** The Qwen chat template's tool shape. */
function templateTools(tools: ToolDescriptor[]) {
  return tools.map((tool) => ({
    type: "function" as const,
    function: { name: tool.name, description: tool.description, parameters: tool.inputSchema },
  }));
}

/**
 * The transformers.js engine: AutoTokenizer + AutoModelForCausalLM (ONNX
 * Runtime: WebGPU or WASM in the browser, the CPU in Node), the model's own
 * chat template with the tools, streamed text deltas, abort between tokens,
 * and usage. Holds one model at a time; generations run one after another.
 */
export class TransformersEngine implements ModelEngine {
  private readonly options: TransformersEngineOptions;
  private transformers?: Promise<Transformers>;
  private loaded?: LoadedModel;
  private loading?: { key: string; promise: Promise<LoadedModel> };
  private queue: Promise<unknown> = Promise.resolve();
  /** Per conversation: the token ids of the last generation and their KV cache. */
  private readonly conversations = new Map<string, ConversationCache>();
  /**
   * ONNX Runtime's WASM threads: what the first load asked for, then what ONNX
   * Runtime started with once it has (it starts its wasm once per worker, and
   * writes back 1 where it cannot run threads). Browser only.
   */
  private wasmThreads?: number;

  constructor(options: TransformersEngineOptions = {}) {
    this.options = options;
  }

  private library(): Promise<Transformers> {
    this.transformers ??= (this.options.importTransformers ?? (() => import("@huggingface/transformers")))();
    return this.transformers;
  }

  /** Points transformers.js at our files for `model`; never at the hub or a CDN. */
  private configure(library: Transformers, model: ModelSource): void {
    const { env } = library;
    if (this.options.localModelPath !== undefined) {
      env.allowLocalModels = true;
      env.allowRemoteModels = false;
      env.localModelPath = this.options.localModelPath;
      env.useBrowserCache = false;
      env.useFSCache = false;
      return;
    }
    // The files are in our Cache API cache under `${baseUrl}/${repo}/resolve/main/${path}`;
    // transformers.js looks a file up there under its remote URL, built from
    // these two settings, before it would fetch (and fetching is off).
    // transformers.js refuses both sources off, and `local_files_only` needs
    // local models on. It checks the cache before either source; a miss (an
    // optional file the manifest lacks) falls to `localModelPath` on the
    // site, never to the hub.
    env.allowLocalModels = true;
    env.allowRemoteModels = false;
    env.localModelPath = `${absoluteBaseUrl(model.baseUrl)}/`;
    env.useBrowserCache = true;
    env.useFSCache = false;
    env.cacheKey = this.options.cacheName ?? MODEL_CACHE_NAME;
    env.remoteHost = `${absoluteBaseUrl(model.baseUrl)}/`;
    env.remotePathTemplate = "{model}/resolve/{revision}/";
    const wasm = env.backends.onnx.wasm;
    if (!isNode && wasm) {
      if (!this.options.wasmPaths) {
        throw new EngineError({ code: "load_failed", message: "ONNX Runtime's wasm files are not configured: pass wasmPaths served by this site." });
      }
      // The object form (not a prefix string) is what transformers.js caches for offline loads.
      wasm.wasmPaths = { ...this.options.wasmPaths };
      // Read once, when ONNX Runtime starts its wasm: the first model's count holds for this worker.
      this.wasmThreads ??= wasmThreadsFor(model.threads, (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated === true);
      wasm.numThreads = this.wasmThreads;
    }
  }

  async load(model: ModelSource, onProgress: (progress: LoadProgress) => void = () => {}): Promise<void> {
    await this.loadModel(model, onProgress);
  }

  private async loadModel(model: ModelSource, onProgress: (progress: LoadProgress) => void): Promise<LoadedModel> {
    if (this.loaded?.key === model.key) {
      onProgress({ progress: 1 });
      return this.loaded;
    }
    if (this.loading?.key === model.key) return this.loading.promise;
    const promise = this.read(model, onProgress);
    this.loading = { key: model.key, promise };
    try {
      const loaded = await promise;
      const previous = this.loaded;
      this.loaded = loaded;
      if (previous) {
        this.conversations.clear();
        await previous.model.dispose().catch(() => {});
      }
      return loaded;
    } finally {
      if (this.loading?.promise === promise) this.loading = undefined;
    }
  }

  private async read(model: ModelSource, onProgress: (progress: LoadProgress) => void): Promise<LoadedModel> {
    if (model.engine !== "transformers") {
      throw new EngineError({ code: "load_failed", message: `The transformers.js engine cannot load a ${model.engine} model (${model.key}).` });
    }
    try {
      const library = await this.library();
      this.configure(library, model);
      onProgress({ progress: 0 });
      const tokenizer = await library.AutoTokenizer.from_pretrained(model.repo, { local_files_only: true });
      onProgress({ progress: 0.1 });
      const device = model.device === "webgpu" ? "webgpu" : isNode ? "cpu" : "wasm";
      // A progress callback also makes transformers.js stream each file out of the cache:
      // without one it calls Response.arrayBuffer(), which Chromium refuses over 2 GB.
      const files = new Map<string, { loaded: number; total: number }>();
      const expectedBytes = model.files.filter((file) => /\.onnx(_data(_\d+)?)?$/.test(file.path)).reduce((total, file) => total + (file.bytes ?? 0), 0);
      let reported = 0.1;
      const causal = await library.AutoModelForCausalLM.from_pretrained(model.repo, {
        device,
        dtype: model.dtype as never,
        local_files_only: true,
        progress_callback: (info: { status: string; file?: string; loaded?: number; total?: number }) => {
          if (info.status !== "progress" || !info.file || !info.total) return;
          files.set(info.file, { loaded: info.loaded ?? 0, total: info.total });
          let loaded = 0;
          let seen = 0;
          for (const file of files.values()) {
            loaded += file.loaded;
            seen += file.total;
          }
          // Against the weights' size (the manifest's), so that a small file finishing first
          // does not look like most of the load.
          const total = Math.max(seen, expectedBytes);
          // Reading the files is most of a load; creating the session is the rest.
          // Reported in steps of half a percent: a file arrives in thousands of chunks.
          const progress = 0.1 + 0.8 * (loaded / total);
          if (progress - reported >= 0.005) {
            reported = progress;
            onProgress({ progress });
          }
        },
      } as never);
      // The count ONNX Runtime started with (the session exists, so it has).
      const wasm = library.env.backends.onnx.wasm;
      if (!isNode && wasm && typeof wasm.numThreads === "number") this.wasmThreads = wasm.numThreads;
      onProgress({ progress: 1 });
      return { key: model.key, tokenizer, model: causal };
    } catch (error) {
      if (EngineError.isInstance(error)) throw error;
      const engineError = toEngineError(error, "load_failed");
      throw new EngineError({ code: "load_failed", message: `Could not load ${model.key}: ${engineError.message}` }, { cause: error });
    }
  }

  generate(request: GenerateRequest, onEvent: (event: RawEngineEvent) => void, signal: AbortSignal): Promise<void> {
    // One generation at a time: ONNX sessions are not reentrant.
    const run = this.queue.then(() => this.generateNow(request, onEvent, signal));
    this.queue = run.catch(() => {});
    return run;
  }

  private async generateNow(request: GenerateRequest, onEvent: (event: RawEngineEvent) => void, signal: AbortSignal): Promise<void> {
    if (signal.aborted) {
      onEvent({ type: "end", reason: "aborted" });
      return;
    }
    const { tokenizer, model } = await this.loadModel(request.model, () => {});
    const library = await this.library();
    try {
      const inputs = tokenizer.apply_chat_template(modelFormat(request.model.format).templateMessages(request.messages) as never, {
        tools: request.tools.length ? (templateTools(request.tools) as never) : null,
        add_generation_prompt: true,
        enable_thinking: request.enableThinking ?? false,
        return_dict: true,
      } as never) as unknown as { input_ids: { dims: number[] }; attention_mask: unknown };
      const promptTokens = inputs.input_ids.dims.at(-1) ?? 0;

      // Reuse the conversation's KV cache for the longest common token prefix
      // (at most all but the last prompt token); the model gets the FULL ids and mask.
      const ids = Array.from((inputs.input_ids as unknown as { data: BigInt64Array }).data);
      const kept = this.conversations.get(request.conversationId);
      this.conversations.delete(request.conversationId);
      let pastKeyValues: unknown;
      let cachedPromptTokens = 0;
      if (kept && kept.modelKey === request.model.key) {
        const limit = Math.min(kept.tokens.length, ids.length - 1);
        let common = 0;
        while (common < limit && kept.tokens[common] === ids[common]) common++;
        if (common > 0) {
          pastKeyValues = cropCache(library, kept.entries, common);
          if (pastKeyValues !== undefined) cachedPromptTokens = common;
        }
      }

      const started = performance.now();
      let firstTokenAt: number | undefined;
      let lastTokenAt = started;
      let outputTokens = 0;
      const streamer = new library.TextStreamer(tokenizer, {
        skip_prompt: true,
        skip_special_tokens: true,
        callback_function: (text: string) => {
          if (text) onEvent({ type: "text", text });
        },
        token_callback_function: () => {
          outputTokens += 1;
          lastTokenAt = performance.now();
          firstTokenAt ??= lastTokenAt;
        },
      });

      // Checked after every token: abort lands within one decode step.
      class AbortCriteria extends library.StoppingCriteria {
        override _call(inputIds: number[][]): boolean[] {
          return inputIds.map(() => signal.aborted);
        }
      }
      // Every forward pass (prefill and each decode step) first yields a task, so cancel() is heard.
      const forward = model.forward;
      (model as { forward: unknown }).forward = async (...args: unknown[]) => {
        await nextTask();
        return (forward as (...a: unknown[]) => unknown).apply(model, args);
      };
      const maxNewTokens = request.maxNewTokens ?? 1024;
      const sampling =
        request.temperature === undefined ? {} : request.temperature === 0 ? { do_sample: false } : { do_sample: true, temperature: request.temperature };
      try {
        const output = (await model.generate({
          ...inputs,
          ...sampling,
          ...(pastKeyValues !== undefined && { past_key_values: pastKeyValues }),
          return_dict_in_generate: true,
          max_new_tokens: maxNewTokens,
          streamer,
          stopping_criteria: [new AbortCriteria()],
        } as never)) as unknown as { sequences: { data: BigInt64Array }; past_key_values: Record<string, CacheTensor> & { get_seq_length(): number } };
        // The cache covers every token but the last one sampled (never fed back).
        const covered = output.past_key_values.get_seq_length();
        const entries = Object.fromEntries(Object.entries(output.past_key_values).filter(([name]) => name.startsWith("past_key_values."))) as Record<string, CacheTensor>;
        if (Object.values(entries).every((tensor) => (tensor.location ?? "cpu") === "cpu")) {
          this.conversations.set(request.conversationId, { modelKey: request.model.key, tokens: Array.from(output.sequences.data.subarray(0, covered)), entries });
          while (this.conversations.size > MAX_CONVERSATIONS) this.conversations.delete(this.conversations.keys().next().value!);
        } else {
          await (output.past_key_values as unknown as { dispose(): Promise<void> }).dispose?.();
        }
      } finally {
        (model as { forward: unknown }).forward = forward;
      }

      const decodeSeconds = firstTokenAt === undefined ? 0 : (lastTokenAt - firstTokenAt) / 1000;
      onEvent({
        type: "usage",
        usage: {
          promptTokens,
          cachedPromptTokens,
          outputTokens,
          timeToFirstTokenMs: firstTokenAt === undefined ? 0 : Math.round(firstTokenAt - started),
          decodeTokensPerSecond: decodeSeconds > 0 ? (outputTokens - 1) / decodeSeconds : 0,
          ...(request.model.device === "wasm" && this.wasmThreads !== undefined && { threads: this.wasmThreads }),
        },
      });
      const reason = signal.aborted ? "aborted" : outputTokens >= maxNewTokens ? "length" : "stop";
      onEvent({ type: "end", reason });
    } catch (error) {
      if (signal.aborted) {
        onEvent({ type: "end", reason: "aborted" });
        return;
      }
      throw toEngineError(error, "generation_failed");
    }
  }
}
