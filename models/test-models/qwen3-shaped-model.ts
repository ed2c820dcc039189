import { buildQwen3DecoderGraph } from "./qwen3-decoder-graph.js";
import { QWEN3_0_6B_SHAPE, type Qwen3Shape } from "./qwen3-shape.js";
import type { TestModelDefinition, TestModelDtype } from "./test-model-definition.js";

/** Folder sizes measured here for Qwen3-0.6B's shapes (weights plus the 11.4 MB tokenizer). */
const APPROXIMATE_BYTES: Readonly<Record<TestModelDtype, number>> = {
  fp32: 2_396_000_000,
  q8: 764_000_000,
  q4: 1_007_000_000,
};

/** Options for `qwen3ShapedModel`. */
export interface Qwen3ShapedModelOptions {
  /** Default `qwen3-0.6b-shaped-<dtype>`. */
  id?: string;
  /** Default `QWEN3_0_6B_SHAPE`; tests pass a small one to run the same graphs quickly. */
  shape?: Qwen3Shape;
  /** Weight seed (default 0). */
  seed?: number;
}

/**
 * `qwen3-0.6b-shaped-<dtype>`: random weights in Qwen3-0.6B's exact shapes
 * (28 layers, hidden 1024, 16/8 heads of 128, MLP 3072, vocabulary 151,936),
 * stored as transformers.js's fp32, q8 or q4 files are. It stands in for the
 * real model in throughput benchmarks; its text is noise. Too big for the
 * test suite: build it with the CLI's `--shaped`.
 *
 * - fp32 (`model.onnx` + `model.onnx_data`, 2.4 GB): tied float embedding and LM head.
 * - q8 (`model_quantized.onnx`, 0.76 GB): int8 `MatMulInteger` layers, int8
 *   embedding and LM head.
 * - q4 (`model_q4.onnx`, 1.0 GB): `MatMulNBits` layers and LM head, float embedding.
 *
 * No `num_logits_to_keep` input, like the published Qwen3 exports.
 */
export function qwen3ShapedModel(dtype: TestModelDtype, options: Qwen3ShapedModelOptions = {}): TestModelDefinition {
  const shape = options.shape ?? QWEN3_0_6B_SHAPE;
  const seed = options.seed ?? 0;
  const isDefaultShape = shape === QWEN3_0_6B_SHAPE;
  return {
    id: options.id ?? `qwen3-0.6b-shaped-${dtype}`,
    dtype,
    description: `random weights in Qwen3-0.6B's shapes, ${dtype}: throughput benchmarks`,
    shape,
    options: { shape, seed },
    approximateBytes: isDefaultShape ? APPROXIMATE_BYTES[dtype] : 12_000_000,
    createGraph: () => buildQwen3DecoderGraph({ shape, format: dtype, seed }),
  };
}
