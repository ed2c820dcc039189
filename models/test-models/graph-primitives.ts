import type { OnnxGraphBuilder } from "./onnx-graph-builder.js";

/**
 * Transformer building blocks from plain ONNX ops (opset 17 has no RMSNorm,
 * RoPE or attention op that both ONNX Runtime Node and Web run everywhere).
 */

/** A float32 weight of ones (RMSNorm gains in a random-weight model: keeps activations at unit scale). */
export function onesWeight(graph: OnnxGraphBuilder, name: string, size: number): string {
  return graph.weight(name, "float32", [size], (target) => {
    new Float32Array(target.buffer, target.byteOffset, size).fill(1);
  });
}

/**
 * RMSNorm over the last axis: `x / sqrt(mean(x²) + eps) * weight`, in the
 * Pow/ReduceMean/Add/Sqrt/Div order that ONNX Runtime fuses into one kernel.
 */
export function rmsNorm(graph: OnnxGraphBuilder, x: string, weight: string, eps: number): string {
  const squared = graph.op("Pow", [x, graph.constant("float32", [2], [])]);
  const mean = graph.op("ReduceMean", [squared], { axes: [-1], keepdims: 1 });
  const root = graph.op("Sqrt", [graph.op("Add", [mean, graph.constant("float32", [eps], [])])]);
  return graph.op("Mul", [graph.op("Div", [x, root]), weight]);
}

/** SiLU: `x * sigmoid(x)`. */
export function silu(graph: OnnxGraphBuilder, x: string): string {
  return graph.op("Mul", [x, graph.op("Sigmoid", [x])]);
}

/**
 * Rotary position embedding tables for `position_ids` ([batch, seq], int64):
 * `cos` and `sin`, each [batch, 1, seq, headDim], shared by every layer.
 */
export function rotaryTables(
  graph: OnnxGraphBuilder,
  positionIds: string,
  headDim: number,
  theta: number,
): { cos: string; sin: string } {
  const half = headDim / 2;
  const inverseFrequencies = Array.from({ length: half }, (_, index) => theta ** (-(2 * index) / headDim));
  const positions = graph.op("Unsqueeze", [graph.op("Cast", [positionIds], { to: 1 }), graph.constant("int64", [2])]);
  const frequencies = graph.op("Mul", [positions, graph.constant("float32", inverseFrequencies)]);
  const angles = graph.op("Concat", [frequencies, frequencies], { axis: -1 });
  const headAxis = graph.constant("int64", [1]);
  return {
    cos: graph.op("Unsqueeze", [graph.op("Cos", [angles]), headAxis]),
    sin: graph.op("Unsqueeze", [graph.op("Sin", [angles]), headAxis]),
  };
}

/** Applies RoPE (rotate-half form, as in Hugging Face's Qwen3) to `x` of shape [batch, heads, seq, headDim]. */
export function applyRotary(graph: OnnxGraphBuilder, x: string, tables: { cos: string; sin: string }, headDim: number): string {
  const half = headDim / 2;
  const lastAxis = graph.constant("int64", [3]);
  const first = graph.op("Slice", [x, graph.constant("int64", [0]), graph.constant("int64", [half]), lastAxis]);
  const second = graph.op("Slice", [x, graph.constant("int64", [half]), graph.constant("int64", [headDim]), lastAxis]);
  const rotated = graph.op("Concat", [graph.op("Neg", [second]), first], { axis: -1 });
  return graph.op("Add", [graph.op("Mul", [x, tables.cos]), graph.op("Mul", [rotated, tables.sin])]);
}

/** `Shape(x)[axis]` as an int64 scalar. */
export function dimension(graph: OnnxGraphBuilder, x: string, axis: number): string {
  return graph.op("Gather", [graph.op("Shape", [x]), graph.constant("int64", [axis], [])], { axis: 0 });
}

/**
 * Keeps the last `count` positions of axis 1 (`count` an int64 scalar; 0
 * keeps all), as transformers.js's `num_logits_to_keep` asks: it feeds 1
 * while generating, so the vocabulary-wide logits are computed for one
 * position instead of the whole prompt.
 */
export function keepLastPositions(graph: OnnxGraphBuilder, x: string, count: string): string {
  const starts = graph.op("Neg", [graph.op("Reshape", [count, graph.constant("int64", [1])])]);
  const ends = graph.constant("int64", [2n ** 62n]);
  return graph.op("Slice", [x, starts, ends, graph.constant("int64", [1])]);
}
