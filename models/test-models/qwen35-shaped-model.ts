import { buildQwen35DecoderGraph } from "./qwen35-decoder-graph.js";
import { QWEN35_0_8B_SHAPE, TINY_QWEN35_SHAPE, type Qwen35Shape } from "./qwen35-shape.js";
import { qwen35TokenizerFiles } from "./qwen35-tokenizer.js";
import type { TestModelDefinition, TestModelDtype } from "./test-model-definition.js";

/** The dtypes the 0.8B-shaped Qwen3.5 comes in (no q4: its MatMulNBits path is the 0.6B's, already covered). */
export const QWEN35_SHAPED_DTYPES = ["fp32", "q8"] as const satisfies readonly TestModelDtype[];

/** Folder sizes for Qwen3.5-0.8B's shapes: weights (fp32 2,614,784,076 bytes, q8 810,774,585) plus the 11.4 MB tokenizer. */
const APPROXIMATE_BYTES: Readonly<Record<(typeof QWEN35_SHAPED_DTYPES)[number], number>> = {
  fp32: 2_626_000_000,
  q8: 822_000_000,
};

/** Options for `qwen35ShapedModel`. */
export interface Qwen35ShapedModelOptions {
  /** Default `qwen35-0.8b-shaped-<dtype>`. */
  id?: string;
  /** Default `QWEN35_0_8B_SHAPE`; tests pass `TINY_QWEN35_SHAPE`. */
  shape?: Qwen35Shape;
  /** fp32 only: compute the embedding in the graph (default: only for the tiny shape, which stays at hundreds of KB). */
  proceduralEmbedding?: boolean;
  /** Weight seed (default 0). */
  seed?: number;
}

/**
 * `qwen35-0.8b-shaped-<dtype>`: random weights in Qwen3.5-0.8B's text
 * shapes (24 layers, 18 Gated DeltaNet + 6 gated full attention, hidden
 * 1024, MLP 3584; vocabulary 151,936 as the Qwen3 tokenizer it ships with),
 * `model_type: "qwen3_5_text"`, loaded by transformers.js 4.3.2 as a
 * DecoderOnly `Qwen3_5ForCausalLM` with its conv, recurrent and KV caches
 * (graph I/O in `buildQwen35DecoderGraph`). It stands in for the real model
 * in throughput benchmarks and prefix-reuse tests; its text is noise. Too
 * big for the test suite: build it with the CLI's `--shaped-qwen35`.
 *
 * - fp32 (`model.onnx` + `model.onnx_data`, 2.6 GB): tied float embedding and LM head.
 * - q8 (`model_quantized.onnx`, 0.82 GB): int8 `MatMulInteger` projections,
 *   int8 embedding and LM head.
 *
 * Tokenizer: Qwen3's with Qwen3.5's chat template (`qwen35TokenizerFiles`).
 */
export function qwen35ShapedModel(dtype: (typeof QWEN35_SHAPED_DTYPES)[number], options: Qwen35ShapedModelOptions = {}): TestModelDefinition {
  const shape = options.shape ?? QWEN35_0_8B_SHAPE;
  const seed = options.seed ?? 0;
  const isDefaultShape = shape === QWEN35_0_8B_SHAPE;
  const proceduralEmbedding = options.proceduralEmbedding ?? (dtype === "fp32" && shape === TINY_QWEN35_SHAPE);
  return {
    id: options.id ?? `qwen35-0.8b-shaped-${dtype}`,
    dtype,
    description: `random weights in Qwen3.5-0.8B's text shapes (qwen3_5_text), ${dtype}: throughput and prefix-reuse tests`,
    shape,
    options: { shape, seed, proceduralEmbedding },
    approximateBytes: isDefaultShape ? APPROXIMATE_BYTES[dtype] : 12_000_000,
    tokenizerFiles: qwen35TokenizerFiles,
    createGraph: () => buildQwen35DecoderGraph({ shape, format: dtype, seed, proceduralEmbedding }),
  };
}

/**
 * `tiny-qwen35`: the tiny Qwen3.5 (`TINY_QWEN35_SHAPE`: 3 linear + 1 full
 * layer of width 32, the full vocabulary, procedural embedding), fp32, a few
 * hundred KB plus the tokenizer: fast load-and-generate tests of the
 * `qwen3_5_text` path, in Node and in the browser.
 */
export function tinyQwen35Model(options: { id?: string; seed?: number } = {}): TestModelDefinition {
  return qwen35ShapedModel("fp32", { id: options.id ?? "tiny-qwen35", shape: TINY_QWEN35_SHAPE, ...(options.seed === undefined ? {} : { seed: options.seed }) });
}
