/// <reference lib="webworker" />
/**
 * The transformers.js baseline: AutoTokenizer + AutoModelForCausalLM in a
 * worker of its own, reading the same files from the same Cache API entries
 * (`web-agents-models-v1`, looked up by transformers.js itself), greedy
 * `generate()` with a `TextStreamer`. No runtime code is involved.
 */
import * as transformers from "@huggingface/transformers";
import { MODEL_CACHE_NAME, absoluteBaseUrl } from "../worker/model-file-url.js";
import { ORT_WASM_PATHS } from "../worker/ort-wasm-paths.js";
import type { TemplateMessage } from "../worker/protocol.js";
import { sharedNow } from "./shared-clock.js";
import { serveWorker } from "./worker-rpc.js";

type Tokenizer = Awaited<ReturnType<typeof transformers.AutoTokenizer.from_pretrained>>;
type CausalModel = Awaited<ReturnType<typeof transformers.AutoModelForCausalLM.from_pretrained>>;

export interface RawModelArgs {
  repo: string;
  baseUrl: string;
  dtype: string;
  device: "wasm" | "webgpu";
  /** ONNX Runtime WASM threads (it falls back to 1 where the worker is not cross-origin isolated). */
  threads: number;
}

let tokenizer: Tokenizer | undefined;
let model: CausalModel | undefined;

function configure(args: RawModelArgs) {
  const { env } = transformers;
  env.allowLocalModels = true;
  env.allowRemoteModels = false;
  env.localModelPath = `${absoluteBaseUrl(args.baseUrl)}/`;
  env.useBrowserCache = true;
  env.useFSCache = false;
  env.cacheKey = MODEL_CACHE_NAME;
  env.remoteHost = `${absoluteBaseUrl(args.baseUrl)}/`;
  env.remotePathTemplate = "{model}/resolve/{revision}/";
  if (env.backends.onnx.wasm) {
    env.backends.onnx.wasm.wasmPaths = { ...ORT_WASM_PATHS };
    env.backends.onnx.wasm.numThreads = args.threads;
  }
}

const templateOptions = { add_generation_prompt: true, enable_thinking: false, tools: null, return_dict: true };

serveWorker({
  async loadTokenizer(args: RawModelArgs) {
    configure(args);
    tokenizer = await transformers.AutoTokenizer.from_pretrained(args.repo, { local_files_only: true });
  },
  async load(args: RawModelArgs) {
    configure(args);
    tokenizer = await transformers.AutoTokenizer.from_pretrained(args.repo, { local_files_only: true });
    // A progress callback, as the runtime's engine passes: transformers.js then streams each file
    // out of the cache instead of Response.arrayBuffer(), which Chromium refuses over 2 GB.
    model = await transformers.AutoModelForCausalLM.from_pretrained(args.repo, { device: args.device, dtype: args.dtype as never, local_files_only: true, progress_callback: () => {} });
    // What ONNX Runtime started with: it writes back 1 where it cannot run threads.
    return { threads: transformers.env.backends.onnx.wasm?.numThreads };
  },
  /** The chat template's token ids for `messages`, as the engine renders them with no tools. */
  async tokenize({ messages }: { messages: TemplateMessage[] }) {
    if (!tokenizer) throw new Error("load the tokenizer first");
    const inputs = tokenizer.apply_chat_template(messages as never, templateOptions as never) as unknown as { input_ids: { data: BigInt64Array } };
    return Array.from(inputs.input_ids.data, Number);
  },
  async generate({ messages, maxNewTokens }: { messages: TemplateMessage[]; maxNewTokens: number }, emit) {
    if (!tokenizer || !model) throw new Error("load the model first");
    const inputs = tokenizer.apply_chat_template(messages as never, templateOptions as never) as unknown as { input_ids: { dims: number[] }; attention_mask: unknown };
    const promptTokens = inputs.input_ids.dims.at(-1) ?? 0;
    const started = performance.now();
    let first: number | undefined;
    let firstTokenAt = 0;
    let last = started;
    let outputTokens = 0;
    let text = "";
    const streamer = new transformers.TextStreamer(tokenizer, {
      skip_prompt: true,
      skip_special_tokens: true,
      callback_function: (chunk: string) => {
        if (!chunk) return;
        text += chunk;
        emit({ text: chunk });
      },
      token_callback_function: () => {
        outputTokens += 1;
        last = performance.now();
        if (first === undefined) {
          first = last;
          firstTokenAt = sharedNow();
        }
      },
    });
    await model.generate({ ...inputs, do_sample: false, max_new_tokens: maxNewTokens, streamer } as never);
    const decodeSeconds = first === undefined ? 0 : (last - first) / 1000;
    return {
      promptTokens,
      outputTokens,
      text,
      workerTtftMs: first === undefined ? 0 : first - started,
      workerDecodeTokPerS: decodeSeconds > 0 ? (outputTokens - 1) / decodeSeconds : 0,
      firstTokenAt,
    };
  },
});
