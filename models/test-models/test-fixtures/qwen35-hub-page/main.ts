// transformers.js itself on the page (no runtime code), driven by
// models/test-models/qwen35-quantized-export.browser.test.ts and
// bench/qwen35-hub-quantized-size.ts: loads a model laid out as the hub's
// multimodal Qwen3.5 export and generates on WASM. `?wasm=` picks ONNX
// Runtime's wasm build: `asyncify` (default) is the one the engine worker
// serves (ORT_WASM_PATHS, transformers.js 4.3's default), `plain` is
// onnxruntime-web's WASM-only build. ONNX Runtime starts one wasm module per
// page, so each build needs its own page load. A failed load comes back as
// `error` instead of a rejection, so the caller can record it.
import { AutoModelForCausalLM, AutoTokenizer, env, type Tensor } from "@huggingface/transformers";
import * as ort from "onnxruntime-web/webgpu";
import plainMjs from "onnxruntime-web/ort-wasm-simd-threaded.mjs?url";
import plainWasm from "onnxruntime-web/ort-wasm-simd-threaded.wasm?url";
import { ORT_WASM_PATHS } from "../../../../worker/ort-wasm-paths.js";

// ONNX Runtime's wasm module imports its memory, which its JS glue creates:
// keep a handle on it to report the heap's size (wasm32: 4 GiB at most).
const memories: WebAssembly.Memory[] = [];
WebAssembly.Memory = new Proxy(WebAssembly.Memory, {
  construct(target, args: [WebAssembly.MemoryDescriptor]) {
    const memory = Reflect.construct(target, args) as WebAssembly.Memory;
    memories.push(memory);
    return memory;
  },
});
const heapBytes = (): number => Math.max(0, ...memories.map((memory) => memory.buffer.byteLength));

const build = new URLSearchParams(location.search).get("wasm") === "plain" ? "plain" : "asyncify";
const wasmPaths = build === "plain" ? { mjs: new URL(plainMjs, location.href).href, wasm: new URL(plainWasm, location.href).href } : { ...ORT_WASM_PATHS };

env.allowLocalModels = false;
env.allowRemoteModels = true;
env.useBrowserCache = false;
env.remoteHost = `${location.origin}/models/test/`;
env.remotePathTemplate = "{model}/resolve/{revision}/";
if (env.backends.onnx.wasm) env.backends.onnx.wasm.wasmPaths = wasmPaths;

type Options = { id: string; dtype: "q8" | "fp32"; prompt: string; maxNewTokens: number; threads?: number };
export type HubPageResult = {
  modelClass?: string;
  sessions?: string[];
  /** The decoder session's input names, as ONNX Runtime reports them. */
  decoderInputs?: string[];
  loadMs: number;
  promptTokens?: number;
  tokens?: number[];
  /** Milliseconds from `generate()` to the first token, then between tokens. */
  tokenMs?: number[];
  /** The wasm heap after loading, and after generating (or failing). */
  heapAfterLoadBytes?: number;
  heapBytes: number;
  error?: string;
};

async function run(options: Options): Promise<HubPageResult> {
  if (options.threads !== undefined && env.backends.onnx.wasm) env.backends.onnx.wasm.numThreads = options.threads;
  const loadStarted = performance.now();
  let model: Awaited<ReturnType<typeof AutoModelForCausalLM.from_pretrained>>;
  let tokenizer: Awaited<ReturnType<typeof AutoTokenizer.from_pretrained>>;
  try {
    tokenizer = await AutoTokenizer.from_pretrained(options.id);
    // A progress callback makes transformers.js stream the files: bodies over 2 GB fail `arrayBuffer()`.
    model = await AutoModelForCausalLM.from_pretrained(options.id, { dtype: options.dtype, device: "wasm", progress_callback: () => {} });
  } catch (error) {
    return { loadMs: performance.now() - loadStarted, heapBytes: heapBytes(), error: error instanceof Error ? error.message : String(error) };
  }
  const loadMs = performance.now() - loadStarted;
  const heapAfterLoadBytes = heapBytes();
  const sessions = (model as unknown as { sessions: Record<string, { inputNames: string[] }> }).sessions;
  const inputs = tokenizer.apply_chat_template([{ role: "user", content: options.prompt }] as never, {
    add_generation_prompt: true,
    return_dict: true,
  } as never) as unknown as { input_ids: Tensor; attention_mask: Tensor };
  const times: number[] = [];
  let last = performance.now();
  let promptSeen = false;
  // put() gets the prompt first, then each new token: time each one.
  const streamer = {
    put: () => {
      if (!promptSeen) return void (promptSeen = true);
      const now = performance.now();
      times.push(now - last);
      last = now;
    },
    end: () => {},
  };
  try {
    last = performance.now();
    const output = (await model.generate({
      ...inputs,
      max_new_tokens: options.maxNewTokens,
      // Random weights may pick the end token at once; timing needs every step.
      min_new_tokens: options.maxNewTokens,
      do_sample: false,
      streamer,
    } as never)) as Tensor;
    const generated = Array.from(output.data as BigInt64Array).slice(inputs.input_ids.dims[1]!);
    return {
      modelClass: model.constructor.name,
      sessions: Object.keys(sessions),
      decoderInputs: sessions.decoder_model_merged?.inputNames ?? sessions.model?.inputNames ?? [],
      loadMs,
      promptTokens: inputs.input_ids.dims[1]!,
      tokens: generated.map(Number),
      tokenMs: times,
      heapAfterLoadBytes,
      heapBytes: heapBytes(),
    };
  } catch (error) {
    return {
      modelClass: model.constructor.name,
      sessions: Object.keys(sessions),
      loadMs,
      tokenMs: times,
      heapAfterLoadBytes,
      heapBytes: heapBytes(),
      error: error instanceof Error ? error.message : String(error),
    };
  } finally {
    await model.dispose();
  }
}

/**
 * One ONNX file of a served model as a bare ONNX Runtime session on WASM
 * (`data`: its external data files beside it), to tell which session of a
 * failed load is the one that fails.
 */
async function createSession(id: string, path: string, data: string[]): Promise<{ inputNames?: string[]; error?: string }> {
  const base = `${location.origin}/models/test/${id}/resolve/main/`;
  try {
    const session = await ort.InferenceSession.create(`${base}${path}`, {
      executionProviders: ["wasm"],
      externalData: data.map((file) => ({ path: file.split("/").pop()!, data: `${base}${file}` })),
    });
    const inputNames = [...session.inputNames];
    await session.release();
    return { inputNames };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

(window as unknown as { qwen35Hub: unknown }).qwen35Hub = { build, run, createSession };
document.body.dataset.ready = "true";
