import { toEngineError } from "./engine-error.js";
import type { ModelEngine } from "./model-engine.js";
import type { GenerateRequest, LoadProgress, ModelSource, RawEngineEvent } from "./protocol.js";
import type { ToolDescriptor } from "../runtime/session/tool-descriptor.js";
import {
  aliasEntries,
  type CacheEntries,
  type CacheLibrary,
  commonPrefixLength,
  ConversationCaches,
  cropEntries,
  disposeEntries,
  disposeEntriesExcept,
  disposeKept,
  downloadEntries,
  entriesOnGpu,
  type KeptCache,
} from "./prefix-cache.js";
import { startHybrid, turnStartLength, type Prefill } from "./hybrid-snapshots.js";
import { nextTask } from "./next-task.js";
import { constraintForRequest } from "./tool-call-constraint/transformers-constraint.js";
import { TransformersModelLoader, type Transformers } from "./transformers-model-loader.js";

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
  /**
   * Whether transformers.js keeps ONNX Runtime's wasm files in the model
   * cache and starts them from a `blob:` URL, so a model loads offline with
   * no service worker. Asked once, before the first load: a worker whose
   * Content-Security-Policy blocks `blob:` scripts answers false and loads
   * them from `wasmPaths` (worker/worker-policy.ts). Default: true.
   */
  cacheWasmFiles?: () => Promise<boolean>;
  /** The Cache API cache holding model files (default `MODEL_CACHE_NAME`, model-file-url.ts). */
  cacheName?: string;
  /** How transformers.js is loaded (default a dynamic import, so it loads only when a model does). */
  importTransformers?: () => Promise<Transformers>;
  /**
   * Where the tool-call grammar fixes the next tokens, feed them in the pass
   * of the token before them instead of one pass each (jump-forward).
   * Default true; benches turn it off to compare.
   */
  jumpForward?: boolean;
}

/** How many conversations keep a cache (the oldest is dropped). */
const MAX_CONVERSATIONS = 4;

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
  /** transformers.js and the one model held (transformers-model-loader.ts). */
  private readonly models: TransformersModelLoader;
  private queue: Promise<unknown> = Promise.resolve();
  /** Per conversation: a cache and the token ids it covers (prefix-cache.ts). */
  private readonly conversations = new ConversationCaches(MAX_CONVERSATIONS);

  constructor(options: TransformersEngineOptions = {}) {
    this.options = options;
    // A cache is the old model's: a new model drops them all.
    this.models = new TransformersModelLoader(options, () => this.conversations.clear());
  }

  holds(model: ModelSource): boolean {
    return this.models.holds(model.key);
  }

  async load(model: ModelSource, onProgress: (progress: LoadProgress) => void = () => {}): Promise<void> {
    if (this.models.holds(model.key)) return void onProgress({ progress: 1 });
    // Another model replaces the one held only between generations: in a shared worker, another
    // tab's may be running on it (serve-engine-clients.ts).
    const run = this.queue.then(() => this.models.load(model, onProgress));
    this.queue = run.catch(() => {});
    await run;
  }

  generate(request: GenerateRequest, onEvent: (event: RawEngineEvent) => void, signal: AbortSignal): Promise<void> {
    // One generation at a time: ONNX sessions are not reentrant. One cancelled while it waits
    // its turn (behind another tab's, in a shared worker) ends at once, without running.
    const before = this.queue;
    const run = untilAborted(before, signal).then(() => this.generateNow(request, onEvent, signal));
    this.queue = before.then(() => run).catch(() => {});
    return run;
  }

  private async generateNow(request: GenerateRequest, onEvent: (event: RawEngineEvent) => void, signal: AbortSignal): Promise<void> {
    if (signal.aborted) {
      onEvent({ type: "finish", reason: "aborted" });
      return;
    }
    const { tokenizer, model, cacheKind: kind } = await this.models.load(request.model, () => {});
    const library = await this.models.library();
    const caches = library as unknown as CacheLibrary;
    let kept = this.conversations.take(request.conversationId);
    if (kept && kept.modelKey !== request.model.key) {
      disposeKept(kept);
      kept = undefined;
    }
    /** The hybrid snapshot this step makes or reuses (kept for the next step). */
    let snapshot: KeptCache | undefined;
    try {
      const templateOptions = { tools: request.tools.length ? templateTools(request.tools) : null, enable_thinking: request.enableThinking ?? false };
      const inputs = tokenizer.apply_chat_template(request.messages as never, { ...templateOptions, add_generation_prompt: true, return_dict: true } as never) as unknown as {
        input_ids: { dims: number[] };
        attention_mask: unknown;
      };
      const promptTokens = inputs.input_ids.dims.at(-1) ?? 0;
      const ids = Array.from((inputs.input_ids as unknown as { data: BigInt64Array }).data);

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
        // Tokens come one a pass, or several where the tool-call constraint writes ahead.
        token_callback_function: (tokens: bigint[]) => {
          outputTokens += tokens.length;
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
      const maxNewTokens = request.maxNewTokens ?? 1024;
      // The tool-call constraint (worker/tool-call-constraint/), readied before each pass of the reply's generate().
      const constrained = constraintForRequest(request, { library, tokenizer, model, maxNewTokens, jumpForward: this.options.jumpForward ?? true, onAhead: (ids) => streamer.put([ids.map(BigInt)]) });
      let beforeForward: ((inputs: unknown) => Promise<void>) | undefined;
      // Every forward pass (prefill and each decode step) first yields a task, so cancel() is heard.
      const forward = model.forward;
      (model as { forward: unknown }).forward = async (...args: unknown[]) => {
        await nextTask();
        await beforeForward?.(args[0]);
        return (forward as (...a: unknown[]) => unknown).apply(model, args);
      };
      const sampling =
        request.temperature === undefined ? {} : request.temperature === 0 ? { do_sample: false } : { do_sample: true, temperature: request.temperature };
      let cachedPromptTokens = 0;
      try {
        // The cache this step starts from (the model always gets the FULL ids and mask).
        let pastKeyValues: unknown;
        if (kind === "kv" && kept) {
          // The longest common token prefix (at most all but the last prompt token), cut from the kept cache.
          const common = commonPrefixLength(kept.tokens, ids, ids.length - 1);
          if (common > 0) {
            // A GPU cache that must be cut is downloaded first (its buffers released).
            const entries = common < kept.tokens.length && entriesOnGpu(kept.entries) ? await downloadEntries(caches, kept.entries) : kept.entries;
            pastKeyValues = new library.DynamicCache(cropEntries(caches, entries, common) as never);
            cachedPromptTokens = common;
          }
        } else if (kind === "hybrid") {
          // The longest kept state these ids extend: the last prompt's boundary (the same turn) or
          // the turn's start (a new user message); hybrid-snapshots.ts.
          const turn = turnStartLength(tokenizer as never, request.messages, templateOptions, ids, kept?.turnStart);
          const prefill: Prefill = async (tokens, base) => {
            const prefilled = (await model.generate({
              input_ids: new library.Tensor("int64", BigInt64Array.from(tokens), [1, tokens.length]),
              attention_mask: new library.Tensor("int64", new BigInt64Array(tokens.length).fill(1n), [1, tokens.length]),
              ...(base && { past_key_values: new library.DynamicCache(aliasEntries(caches, base.entries) as never) }),
              max_new_tokens: 1,
              do_sample: false,
              return_dict_in_generate: true,
            } as never)) as unknown as { past_key_values: CacheEntries };
            return { modelKey: request.model.key, tokens, entries: { ...prefilled.past_key_values }, ...(tokens.length === turn?.length && { userMessages: turn.userMessages }) };
          };
          const start = await startHybrid(ids, kept, turn?.length, prefill);
          kept = undefined;
          snapshot = start.snapshot;
          cachedPromptTokens = start.cachedPromptTokens;
          // generate() disposes the cache tensors it replaces: it gets aliases, the snapshot stays.
          if (snapshot) pastKeyValues = new library.DynamicCache(aliasEntries(caches, snapshot.entries) as never);
        }

        if (!signal.aborted) {
          beforeForward = constrained?.beforeForward;
          const output = (await model.generate({
            ...inputs,
            ...sampling,
            ...(pastKeyValues !== undefined && { past_key_values: pastKeyValues }),
            return_dict_in_generate: true,
            max_new_tokens: maxNewTokens,
            streamer,
            stopping_criteria: [new AbortCriteria(), ...(constrained ? [constrained.observer] : [])],
            ...(constrained && { logits_processor: constrained.logitsProcessor }),
          } as never)) as unknown as { sequences: { data: BigInt64Array }; past_key_values: CacheEntries & { get_seq_length(): number } };
          const finalEntries: CacheEntries = { ...output.past_key_values };
          // What generate() was handed and did not replace is the engine's to free.
          disposeEntriesExcept(kept?.entries, finalEntries);
          kept = undefined;
          if (kind === "kv") {
            // The cache covers every token but the last one sampled (never fed back).
            const covered = output.past_key_values.get_seq_length();
            this.conversations.set(request.conversationId, { modelKey: request.model.key, tokens: Array.from(output.sequences.data.subarray(0, covered)), entries: finalEntries });
          } else {
            disposeEntriesExcept(finalEntries, snapshot?.entries);
          }
        }
        // Aborted before generating: a KV cache not handed on is dropped; a snapshot is still right.
        disposeEntries(kept?.entries);
        kept = undefined;
        if (snapshot) this.conversations.set(request.conversationId, snapshot);
        snapshot = undefined;
      } finally {
        (model as { forward: unknown }).forward = forward;
        constrained?.done();
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
          ...(firstTokenAt !== undefined && { firstTokenAt: performance.timeOrigin + firstTokenAt }),
          ...(request.model.device === "wasm" && this.models.wasmThreads !== undefined && { threads: this.models.wasmThreads }),
          ...(constrained && request.reportRepairs && { repairedCalls: constrained.constraint.repairedCalls }),
        },
      });
      const reason = signal.aborted ? "aborted" : outputTokens >= maxNewTokens ? "length" : "stop";
      onEvent({ type: "finish", reason });
    } catch (error) {
      disposeKept(kept);
      disposeKept(snapshot);
      if (signal.aborted) {
        onEvent({ type: "finish", reason: "aborted" });
        return;
      }
      throw toEngineError(error, "generation_failed");
    }
  }
}

/** Settles when `turn` does, or as soon as `signal` aborts. */
function untilAborted(turn: Promise<unknown>, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const done = () => {
      signal.removeEventListener("abort", done);
      resolve();
    };
    signal.addEventListener("abort", done);
    turn.then(done, done);
  });
}
