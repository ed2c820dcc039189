/// <reference lib="webworker" />
/**
 * The floor: a bare onnxruntime-web session loop in a worker of its own.
 * The ONNX file (and its external data) comes from the same Cache API
 * entries the other paths read; each step feeds `input_ids`,
 * `attention_mask`, `position_ids` and the previous step's `present.*` back
 * as `past_key_values.*`, takes the argmax of the last logits row (greedy),
 * and decodes the token's bytes. No chat template, no tokenizer beyond that.
 */
import * as ort from "onnxruntime-web/webgpu";
import { MODEL_CACHE_NAME, modelFileUrl } from "../worker/model-file-url.js";
import { ORT_WASM_PATHS } from "../worker/ort-wasm-paths.js";
import { ByteLevelDecoder, type TokenizerJson } from "./byte-level-decoder.js";
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
  layers: number;
  kvHeads: number;
  headDim: number;
  eos: Set<number>;
}

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
    const layerCount = (config as { num_hidden_layers: number }).num_hidden_layers;
    // On WebGPU the KV cache stays on the GPU between steps, as transformers.js keeps it; only the logits come back.
    if (args.device === "webgpu") {
      options.preferredOutputLocation = Object.fromEntries(
        Array.from({ length: layerCount }, (_, layer) => [`present.${layer}.key`, `present.${layer}.value`]).flat().map((name) => [name, "gpu-buffer" as const]),
      );
    }
    const t1 = performance.now();
    const session = await ort.InferenceSession.create(model, options);
    const t2 = performance.now();
    const eosIds = [generation?.eos_token_id ?? config?.eos_token_id].flat().filter((id): id is number => typeof id === "number");
    const c = config as { num_hidden_layers: number; num_key_value_heads: number; head_dim?: number; hidden_size: number; num_attention_heads: number };
    loaded = {
      session,
      decoder: new ByteLevelDecoder(tokenizer as unknown as TokenizerJson),
      layers: c.num_hidden_layers,
      kvHeads: c.num_key_value_heads,
      headDim: c.head_dim ?? c.hidden_size / c.num_attention_heads,
      eos: new Set(eosIds),
    };
    const t3 = performance.now();
    // What ONNX Runtime started with: it writes back 1 where it cannot run threads.
    return { stages: { filesMs: t1 - t0, sessionMs: t2 - t1, decoderMs: t3 - t2, sinceWorkerStartMs: t3 }, threads: ort.env.wasm.numThreads };
  },
  async generate({ ids, maxNewTokens }: { ids: number[]; maxNewTokens: number }, emit) {
    if (!loaded) throw new Error("load the model first");
    const { session, decoder, layers, kvHeads, headDim, eos } = loaded;
    decoder.reset();
    const inputs = new Set(session.inputNames);
    const started = performance.now();
    let first: number | undefined;
    let last = started;
    let past: Record<string, ort.Tensor> = {};
    for (let layer = 0; layer < layers; layer++) {
      for (const kind of ["key", "value"]) past[`past_key_values.${layer}.${kind}`] = new ort.Tensor("float32", new Float32Array(), [1, kvHeads, 0, headDim]);
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
      if (inputs.has("position_ids")) feeds.position_ids = new ort.Tensor("int64", BigInt64Array.from({ length }, (_, i) => BigInt(position + i)), [1, length]);
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
      first ??= last;
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
      for (let layer = 0; layer < layers; layer++) {
        next[`past_key_values.${layer}.key`] = outputs[`present.${layer}.key`]!;
        next[`past_key_values.${layer}.value`] = outputs[`present.${layer}.value`]!;
      }
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
    };
  },
});
