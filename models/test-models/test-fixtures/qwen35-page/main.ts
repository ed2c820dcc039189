// transformers.js itself on the page (no runtime code), driven by
// models/test-models/qwen35-models.browser.test.ts: the Qwen3.5 test models
// load and generate on WASM and on WebGPU.
import { AutoModelForCausalLM, AutoTokenizer, env, type Tensor } from "@huggingface/transformers";
import { ORT_WASM_PATHS } from "../../../../worker/ort-wasm-paths.js";

env.allowLocalModels = false;
env.allowRemoteModels = true;
env.useBrowserCache = false;
env.remoteHost = `${location.origin}/models/test/`;
env.remotePathTemplate = "{model}/resolve/{revision}/";
if (env.backends.onnx.wasm) env.backends.onnx.wasm.wasmPaths = { ...ORT_WASM_PATHS };

type Message = { role: string; content: string; tool_calls?: unknown[] };
type Options = { id: string; device: "wasm" | "webgpu"; maxNewTokens: number; enableThinking?: boolean; tools?: unknown[] };

const loaded = new Map<string, Promise<{ tokenizer: Awaited<ReturnType<typeof AutoTokenizer.from_pretrained>>; model: Awaited<ReturnType<typeof AutoModelForCausalLM.from_pretrained>> }>>();

function load(id: string, device: "wasm" | "webgpu") {
  const key = `${id}/${device}`;
  if (!loaded.has(key)) {
    loaded.set(
      key,
      (async () => ({
        tokenizer: await AutoTokenizer.from_pretrained(id),
        model: await AutoModelForCausalLM.from_pretrained(id, { dtype: "fp32", device }),
      }))(),
    );
  }
  return loaded.get(key)!;
}

/** Templates `messages`, generates greedily, and returns what came out. */
async function generate(messages: Message[], options: Options) {
  const { tokenizer, model } = await load(options.id, options.device);
  const inputs = tokenizer.apply_chat_template(messages as never, {
    add_generation_prompt: true,
    return_dict: true,
    ...(options.tools ? { tools: options.tools } : {}),
    ...(options.enableThinking === undefined ? {} : { enable_thinking: options.enableThinking }),
  } as never) as unknown as { input_ids: Tensor; attention_mask: Tensor };
  const started = performance.now();
  const output = (await model.generate({ ...inputs, max_new_tokens: options.maxNewTokens, do_sample: false } as never)) as Tensor;
  const generated = Array.from(output.data as BigInt64Array).slice(inputs.input_ids.dims[1]!);
  return {
    modelClass: model.constructor.name,
    sessions: Object.keys(model.sessions),
    promptTokens: inputs.input_ids.dims[1]!,
    tokens: generated.map(Number),
    text: tokenizer.decode(generated, { skip_special_tokens: true }),
    ms: performance.now() - started,
  };
}

async function webgpuAdapter(): Promise<string | null> {
  const gpu = (navigator as unknown as { gpu?: { requestAdapter(): Promise<{ info?: { description?: string; vendor?: string } } | null> } }).gpu;
  const adapter = await gpu?.requestAdapter();
  return adapter ? `${adapter.info?.vendor ?? ""} ${adapter.info?.description ?? ""}`.trim() || "adapter" : null;
}

(window as unknown as { qwen35: unknown }).qwen35 = { generate, webgpuAdapter };
document.body.dataset.ready = "true";
