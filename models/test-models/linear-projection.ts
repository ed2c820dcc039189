import type { OnnxGraphBuilder } from "./onnx-graph-builder.js";
import { fillRandomBytes, fillUniformFloat32, seedFromName } from "./seeded-random.js";

/**
 * How a model's linear layers store their weights, named after the
 * transformers.js `dtype` that loads them:
 * - `fp32`: float32 `MatMul` (`onnx/model.onnx`);
 * - `q8`: int8 weights with `DynamicQuantizeLinear` + `MatMulInteger`, the
 *   pattern ONNX Runtime's dynamic quantization writes (`model_quantized.onnx`);
 * - `q4`: 4-bit blocks of 32 with `com.microsoft` `MatMulNBits`, as
 *   ONNX Runtime's 4-bit weight quantizer writes (`model_q4.onnx`);
 * - `q8-blocks`: 8-bit blocks of 32 with `MatMulNBits` `bits: 8`, a float32
 *   scale and a uint8 zero point per block (1.15625 bytes a weight): the
 *   layout whose sizes the hub's Qwen3.5 `*_quantized.onnx` files have, also
 *   loaded with transformers.js's `q8` dtype (the `_quantized` suffix).
 */
export type WeightFormat = "fp32" | "q8" | "q4" | "q8-blocks";

/** Random weights' standard deviation (Hugging Face's `initializer_range` for Qwen3). */
export const WEIGHT_STD = 0.02;

/** Elements per `MatMulNBits` block (ONNX Runtime's quantizer default). */
export const Q4_BLOCK_SIZE = 32;

/** Elements per block of the `q8-blocks` format (what the hub's Qwen3.5 `quantized` sizes imply). */
export const Q8_BLOCK_SIZE = 32;

/** The zero point of the `q8-blocks` format: uint8 weights centred on 128, as a symmetric quantizer writes them. */
export const Q8_BLOCK_ZERO_POINT = 128;

/** Standard deviation of a uniformly random int8 (-128..127) value. */
export const INT8_STD = Math.sqrt((256 ** 2 - 1) / 12);
/** Standard deviation of a uniformly random 4-bit value less its zero point 8 (-8..7). */
const INT4_STD = Math.sqrt((16 ** 2 - 1) / 12);

/** Options for `linearProjection`. */
export interface LinearProjectionOptions {
  /** Weight name prefix, e.g. `model.layers.0.self_attn.q_proj`. */
  name: string;
  inFeatures: number;
  outFeatures: number;
  format: WeightFormat;
  /** The model seed; each weight's own seed derives from it and its name. */
  seed: number;
  /** Name of the result tensor (default: generated). */
  output?: string;
}

/**
 * `x @ W` for x [..., inFeatures] with a random W [inFeatures, outFeatures] of
 * standard deviation `WEIGHT_STD`, stored as `format` says. Quantized weights
 * are drawn directly as random integers with scales that give the same
 * spread: nothing is quantized from floats, so building stays fast.
 */
export function linearProjection(graph: OnnxGraphBuilder, x: string, options: LinearProjectionOptions): string {
  const { name, inFeatures, outFeatures, seed, output } = options;
  const named = output === undefined ? {} : { output };
  switch (options.format) {
    case "fp32": {
      const weight = graph.weight(`${name}.weight`, "float32", [inFeatures, outFeatures], (target) =>
        fillUniformFloat32(new Float32Array(target.buffer, target.byteOffset, target.byteLength / 4), seedFromName(name, seed), WEIGHT_STD),
      );
      return graph.op("MatMul", [x, weight], {}, named);
    }
    case "q8": {
      const weight = graph.weight(`${name}.weight_quantized`, "int8", [inFeatures, outFeatures], (target) =>
        fillRandomBytes(target, seedFromName(name, seed)),
      );
      const [quantized, scale, zeroPoint] = graph.ops("DynamicQuantizeLinear", [x], 3) as [string, string, string];
      const product = graph.op("MatMulInteger", [quantized, weight, zeroPoint, graph.constant("int8", [0], [])]);
      const combinedScale = graph.op("Mul", [scale, graph.constant("float32", [WEIGHT_STD / INT8_STD], [])]);
      return graph.op("Mul", [graph.op("Cast", [product], { to: 1 }), combinedScale], {}, named);
    }
    case "q4": {
      if (inFeatures % Q4_BLOCK_SIZE !== 0) throw new Error(`${name}: inFeatures ${inFeatures} is not a multiple of ${Q4_BLOCK_SIZE}`);
      graph.useDomain("com.microsoft", 1);
      const blocks = inFeatures / Q4_BLOCK_SIZE;
      // MatMulNBits stores B transposed: [N][blocks][block bytes], two weights a byte (low nibble first).
      const packed = graph.weight(`${name}.weight_Q4`, "uint8", [outFeatures, blocks, Q4_BLOCK_SIZE / 2], (target) =>
        fillRandomBytes(target, seedFromName(name, seed)),
      );
      const scales = graph.weight(`${name}.weight_scales`, "float32", [outFeatures * blocks], (target) => {
        new Float32Array(target.buffer, target.byteOffset, outFeatures * blocks).fill(WEIGHT_STD / INT4_STD);
      });
      return graph.op(
        "MatMulNBits",
        [x, packed, scales],
        { K: inFeatures, N: outFeatures, bits: 4, block_size: Q4_BLOCK_SIZE },
        { ...named, domain: "com.microsoft" },
      );
    }
    case "q8-blocks": {
      const { packed, scales, zeroPoints } = q8BlockWeights(graph, name, outFeatures, inFeatures, seed);
      return graph.op(
        "MatMulNBits",
        [x, packed, scales, zeroPoints],
        { K: inFeatures, N: outFeatures, bits: 8, block_size: Q8_BLOCK_SIZE },
        { ...named, domain: "com.microsoft" },
      );
    }
  }
}

/**
 * The three tensors of an 8-bit block-quantized [rows, columns] matrix, rows
 * major, as `MatMulNBits` (rows = N, blocks over K) and `GatherBlockQuantized`
 * (rows = vocabulary, blocks over hidden) both read them: `_Q8` uint8 [rows,
 * blocks, 32] (MatMulNBits' 3-D form; the same bytes as [rows, columns]),
 * `_scales` float32 [rows * blocks], `_zero_points` uint8 [rows * blocks].
 * Random bytes and one scale for all blocks, for the `WEIGHT_STD` spread.
 */
export function q8BlockWeights(
  graph: OnnxGraphBuilder,
  name: string,
  rows: number,
  columns: number,
  seed: number,
  dims: "matmul" | "gather" = "matmul",
): { packed: string; scales: string; zeroPoints: string } {
  if (columns % Q8_BLOCK_SIZE !== 0) throw new Error(`${name}: ${columns} columns is not a multiple of ${Q8_BLOCK_SIZE}`);
  graph.useDomain("com.microsoft", 1);
  const blocks = columns / Q8_BLOCK_SIZE;
  const gather = dims === "gather";
  const packed = graph.weight(`${name}.weight_Q8`, "uint8", gather ? [rows, columns] : [rows, blocks, Q8_BLOCK_SIZE], (target) =>
    fillRandomBytes(target, seedFromName(name, seed)),
  );
  const scales = graph.weight(`${name}.weight_scales`, "float32", gather ? [rows, blocks] : [rows * blocks], (target) => {
    // A uniform uint8 less its zero point 128 spreads as a uniform int8 does.
    new Float32Array(target.buffer, target.byteOffset, rows * blocks).fill(WEIGHT_STD / INT8_STD);
  });
  const zeroPoints = graph.weight(`${name}.weight_zero_points`, "uint8", gather ? [rows, blocks] : [rows * blocks], (target) => {
    target.fill(Q8_BLOCK_ZERO_POINT);
  });
  return { packed, scales, zeroPoints };
}
