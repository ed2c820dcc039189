/// <reference lib="webworker" />
/**
 * The floor: a bare onnxruntime-web session loop in a worker of its own.
 * The ONNX file (and its external data) comes from the same Cache API
 * entries the other paths read; each step feeds `input_ids`,
 * `attention_mask`, `position_ids` and the previous step's `present*`
 * outputs back as the `past_*` inputs (`present.i.key` -> `past_key_values.i.key`;
 * Qwen3.5's `present_conv.i` / `present_recurrent.i` -> `past_conv.i` /
 * `past_recurrent.i`; the first step's empty caches shaped from the
 * session's input metadata, as transformers.js builds them), takes the
 * argmax of the last logits row (greedy), and decodes the token's bytes. No
 * chat template, no tokenizer beyond that.
 */
import * as ort from "onnxruntime-web/webgpu";
import { MODEL_CACHE_NAME, modelFileUrl } from "../worker/model-file-url.js";
import { ORT_WASM_PATHS } from "../worker/ort-wasm-paths.js";
import { ByteLevelDecoder, type TokenizerJson } from "./byte-level-decoder.js";
import { sharedNow } from "./shared-clock.js";
import { serveWorker } from "./worker-rpc.js";

export interface BareModelArgs {
  repo: string;
  baseUrl: string;
  device: "wasm" | "webgpu";
  /** ONNX Runtime WASM threads (it falls back to 1 where the worker is not cross-origin isolated). */
  threads: number;
  /** The ONNX graph's path in the repo, e.g. `onnx/model_quantized.onnx`. */
  onnxPath: string;
  /** Its external data file, when the weights live outside the graph. */
  dataPath?: string;
}

interface Loaded {
  session: ort.InferenceSession;
  decoder: ByteLevelDecoder;
  /** The cache inputs with their first step's shapes (symbolic dims: batch 1, the rest 0). */
  cacheInputs: { name: string; type: "float32" | "float16"; dims: number[] }[];
  /** `position_ids` is `[3, batch, seq]` (Qwen3.5's M-RoPE; text positions in all three rows). */
  ropeRows: number;
  eos: Set<number>;
}

/** The graph's cache outputs, from the config as transformers.js names them: per layer KV, or conv + recurrent for Qwen3.5's linear-attention layers. */
function cacheOutputs(config: Record<string, unknown>): string[] {
  const text = (config.text_config ?? config) as { num_hidden_layers: number; layer_types?: string[] };
  return Array.from({ length: text.num_hidden_layers }, (_, layer) =>
    text.layer_types?.[layer] === "linear_attention" ? [`present_conv.${layer}`, `present_recurrent.${layer}`] : [`present.${layer}.key`, `present.${layer}.value`],
  ).flat();
}

/** The cache input a `present*` output feeds. */
const pastName = (output: string) => output.replace("present_conv", "past_conv").replace("present_recurrent", "past_recurrent").replace(/^present\./, "past_key_values.");

let loaded: Loaded | undefined;

/** A body's bytes, streamed into one buffer: Response.arrayBuffer() fails in Chromium over 2 GB. */
async function bytesOf(response: Response): Promise<Uint8Array> {
  if (!response.body) return new Uint8Array(await response.arrayBuffer());
  const chunks: Uint8Array[] = [];
  let length = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    length += value.byteLength;
  }
  const bytes = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

async function read(cache: Cache, args: BareModelArgs, path: string): Promise<Response> {
  const url = modelFileUrl(args, path);
  const response = (await cache.match(url)) ?? (await fetch(url));
  if (!response.ok) throw new Error(`${path}: HTTP ${response.status}`);
  return response;
}

serveWorker({
  async load(args: BareModelArgs) {
    const t0 = performance.now();
    ort.env.wasm.wasmPaths = { ...ORT_WASM_PATHS };
    ort.env.wasm.numThreads = args.threads;
    const cache = await caches.open(MODEL_CACHE_NAME);
    const [config, generation, tokenizer] = await Promise.all(
      ["config.json", "generation_config.json", "tokenizer.json"].map(async (path) => (await read(cache, args, path)).json() as Promise<Record<string, unknown>>),
    );
    const model = await bytesOf(await read(cache, args, args.onnxPath));
    const options: ort.InferenceSession.SessionOptions = { executionProviders: [args.device === "webgpu" ? "webgpu" : "wasm"] };

    if (args.dataPath) {
      const data = await bytesOf(await read(cache, args, args.dataPath));
      options.externalData = [{ path: args.dataPath.split("/").pop()!, data }];
    }
    const t1 = performance.now();
    // On WebGPU the caches stay on the GPU between steps, as transformers.js keeps them; only the logits come back.
    if (args.device === "webgpu") options.preferredOutputLocation = Object.fromEntries(cacheOutputs(config!).map((name) => [name, "gpu-buffer" as const]));
    const session = await ort.InferenceSession.create(model, options);
    const t2 = performance.now();
    const eosIds = [generation?.eos_token_id ?? config?.eos_token_id].flat().filter((id): id is number => typeof id === "number");
    const metadata = session.inputMetadata as unknown as { name: string; type?: string; shape?: (number | string)[] }[];
    loaded = {
      session,
      decoder: new ByteLevelDecoder(tokenizer as unknown as TokenizerJson),
      cacheInputs: metadata
        .filter((input) => input.name.startsWith("past_"))
        .map((input) => ({
          name: input.name,
          type: input.type === "float16" ? "float16" : "float32",
          dims: (input.shape ?? []).map((dim) => (typeof dim === "number" ? dim : dim === "batch_size" ? 1 : 0)),
        })),
      ropeRows: metadata.find((input) => input.name === "position_ids")?.shape?.length === 3 ? 3 : 1,
      eos: new Set(eosIds),
    };
    const t3 = performance.now();
    // What ONNX Runtime started with: it writes back 1 where it cannot run threads.
    return { stages: { filesMs: t1 - t0, sessionMs: t2 - t1, decoderMs: t3 - t2, sinceWorkerStartMs: t3 }, threads: ort.env.wasm.numThreads };
  },
  async generate({ ids, maxNewTokens }: { ids: number[]; maxNewTokens: number }, emit) {
    if (!loaded) throw new Error("load the model first");
    const { session, decoder, cacheInputs, ropeRows, eos } = loaded;
    decoder.reset();
    const inputs = new Set(session.inputNames);
    const started = performance.now();
    let first: number | undefined;
    let firstTokenAt = 0;
    let last = started;
    let past: Record<string, ort.Tensor> = {};
    for (const input of cacheInputs) {
      const size = input.dims.reduce((total, dim) => total * dim, 1);
      past[input.name] = input.type === "float16" ? new ort.Tensor("float16", new Uint16Array(size), input.dims) : new ort.Tensor("float32", new Float32Array(size), input.dims);
    }
    let step = ids.map(BigInt);
    let position = 0;
    let outputTokens = 0;
    let text = "";
    for (;;) {
      const length = step.length;
      const feeds: Record<string, ort.Tensor> = {
        input_ids: new ort.Tensor("int64", BigInt64Array.from(step), [1, length]),
        attention_mask: new ort.Tensor("int64", new BigInt64Array(position + length).fill(1n), [1, position + length]),
        ...past,
      };
      if (inputs.has("position_ids")) {
        feeds.position_ids = new ort.Tensor("int64", BigInt64Array.from({ length: ropeRows * length }, (_, i) => BigInt(position + (i % length))), ropeRows === 3 ? [3, 1, length] : [1, length]);
      }
      if (inputs.has("num_logits_to_keep")) feeds.num_logits_to_keep = new ort.Tensor("int64", BigInt64Array.of(1n), []);
      const outputs = await session.run(feeds);
      const logits = outputs.logits!;
      const vocab = logits.dims.at(-1)!;
      const rows = logits.dims.at(-2)!;
      const data = (logits.location === "cpu" ? logits.data : await logits.getData()) as Float32Array;
      let best = 0;
      let bestValue = -Infinity;
      for (let i = (rows - 1) * vocab, end = rows * vocab; i < end; i++) {
        if (data[i]! > bestValue) {
          bestValue = data[i]!;
          best = i - (rows - 1) * vocab;
        }
      }
      outputTokens += 1;
      last = performance.now();
      if (first === undefined) {
        first = last;
        firstTokenAt = sharedNow();
      }
      const piece = decoder.next(best);
      text += piece;
      emit({ text: piece });
      logits.dispose?.();
      const done = eos.has(best) || outputTokens >= maxNewTokens;
      if (done) {
        for (const [name, tensor] of Object.entries(outputs)) if (name !== "logits") tensor.dispose?.();
      }
      for (const tensor of Object.values(past)) tensor.dispose?.();
      if (done) break;
      const next: Record<string, ort.Tensor> = {};
      for (const [name, tensor] of Object.entries(outputs)) if (name.startsWith("present")) next[pastName(name)] = tensor;
      past = next;
      position += length;
      step = [BigInt(best)];
    }
    const decodeSeconds = first === undefined ? 0 : (last - first) / 1000;
    return {
      promptTokens: ids.length,
      outputTokens,
      text,
      workerTtftMs: first === undefined ? 0 : first - started,
      workerDecodeTokPerS: decodeSeconds > 0 ? (outputTokens - 1) / decodeSeconds : 0,
      firstTokenAt,
    };
  },
});
