import { applyRotary, onesWeight, rmsNorm } from "./graph-primitives.js";
import { linearProjection, type WeightFormat } from "./linear-projection.js";
import type { OnnxGraphBuilder } from "./onnx-graph-builder.js";
import { qwen35RotaryDim, type Qwen35Shape } from "./qwen35-shape.js";

/** What a Qwen3.5 full-attention block reads besides its own weights. */
export interface Qwen35AttentionInputs {
  index: number;
  shape: Qwen35Shape;
  format: WeightFormat;
  seed: number;
  /** The residual stream [batch, seq, hidden]. */
  hidden: string;
  /** `past_key_values.{index}.key` / `.value` [batch, kvHeads, past, headDim]. */
  pastKey: string;
  pastValue: string;
  /** Additive mask [batch, 1, 1, seq, total]: 0 where allowed, a large negative number elsewhere. */
  attentionBias: string;
  /** Rotary tables [batch, 1, seq, rotaryDim]. */
  rotary: { cos: string; sin: string };
}

/**
 * Rotary tables for Qwen3.5's interleaved M-RoPE from `position_ids`
 * [3, batch, seq] (temporal, height, width rows; equal for text):
 * frequency i takes row 1 when `i % 3 == 1` and `i < 3 * section[1]`, row 2
 * when `i % 3 == 2` and `i < 3 * section[2]`, else row 0 (Hugging Face's
 * `apply_interleaved_mrope`). Returns cos / sin [batch, 1, seq, rotaryDim].
 */
export function mropeTables(graph: OnnxGraphBuilder, positionIds: string, shape: Qwen35Shape): { cos: string; sin: string } {
  const rotaryDim = qwen35RotaryDim(shape);
  const half = rotaryDim / 2;
  const [, height, width] = shape.mropeSection;
  const rows = Array.from({ length: half }, (_, index) => (index % 3 === 1 && index < 3 * height ? 1 : index % 3 === 2 && index < 3 * width ? 2 : 0));
  const inverseFrequencies = Array.from({ length: half }, (_, index) => shape.ropeTheta ** (-(2 * index) / rotaryDim));
  const positions = graph.op("Transpose", [graph.op("Cast", [positionIds], { to: 1 })], { perm: [1, 2, 0] }); // [batch, seq, 3]
  const perFrequency = graph.op("Gather", [positions, graph.constant("int64", rows)], { axis: 2 }); // [batch, seq, half]
  const frequencies = graph.op("Mul", [perFrequency, graph.constant("float32", inverseFrequencies)]);
  const angles = graph.op("Concat", [frequencies, frequencies], { axis: -1 });
  const headAxis = graph.constant("int64", [1]);
  return {
    cos: graph.op("Unsqueeze", [graph.op("Cos", [angles]), headAxis]),
    sin: graph.op("Unsqueeze", [graph.op("Sin", [angles]), headAxis]),
  };
}

/** RoPE on the first `rotaryDim` dims of x [batch, heads, seq, headDim]; the rest pass through. */
function applyPartialRotary(graph: OnnxGraphBuilder, x: string, tables: { cos: string; sin: string }, rotaryDim: number, headDim: number): string {
  if (rotaryDim === headDim) return applyRotary(graph, x, tables, headDim);
  const lastAxis = graph.constant("int64", [3]);
  const rotating = graph.op("Slice", [x, graph.constant("int64", [0]), graph.constant("int64", [rotaryDim]), lastAxis]);
  const passing = graph.op("Slice", [x, graph.constant("int64", [rotaryDim]), graph.constant("int64", [headDim]), lastAxis]);
  return graph.op("Concat", [applyRotary(graph, rotating, tables, rotaryDim), passing], { axis: -1 });
}

/**
 * Qwen3.5's gated softmax attention (Qwen3-Next's): `q_proj` yields each
 * head's query and an output gate side by side, RMS-normed queries and keys,
 * partial rotary, grouped-query attention over `past + new` keys, the
 * output times `sigmoid(gate)`, `o_proj`, residual add. Writes
 * `present.{index}.key` / `.value`; returns the new residual stream.
 */
export function addQwen35Attention(graph: OnnxGraphBuilder, inputs: Qwen35AttentionInputs): string {
  const { index, shape, format, seed, hidden } = inputs;
  const { hiddenSize, attentionHeads, keyValueHeads, headDim, rmsNormEps } = shape;
  const prefix = `model.layers.${index}`;
  const project = (x: string, name: string, inFeatures: number, outFeatures: number): string =>
    linearProjection(graph, x, { name: `${prefix}.${name}`, inFeatures, outFeatures, format, seed });
  const toHeads = [0, 2, 1, 3];
  const lastAxis = graph.constant("int64", [3]);
  const rotaryDim = qwen35RotaryDim(shape);

  const normed = rmsNorm(graph, hidden, onesWeight(graph, `${prefix}.input_layernorm.weight`, hiddenSize), rmsNormEps);
  // [batch, seq, heads, 2 * headDim]: per head, its query then its gate.
  const queryAndGate = graph.op("Reshape", [project(normed, "self_attn.q_proj", hiddenSize, attentionHeads * headDim * 2), graph.constant("int64", [0, 0, attentionHeads, 2 * headDim])]);
  const queryHeads = graph.op("Slice", [queryAndGate, graph.constant("int64", [0]), graph.constant("int64", [headDim]), lastAxis]);
  const gate = graph.op("Reshape", [
    graph.op("Slice", [queryAndGate, graph.constant("int64", [headDim]), graph.constant("int64", [2 * headDim]), lastAxis]),
    graph.constant("int64", [0, 0, attentionHeads * headDim]),
  ]);
  const normedHeads = (heads: string, norm: string): string =>
    graph.op("Transpose", [rmsNorm(graph, heads, onesWeight(graph, `${prefix}.self_attn.${norm}.weight`, headDim), rmsNormEps)], { perm: toHeads });
  const split = (name: string): string =>
    graph.op("Reshape", [project(normed, `self_attn.${name}_proj`, hiddenSize, keyValueHeads * headDim), graph.constant("int64", [0, 0, keyValueHeads, headDim])]);
  const query = applyPartialRotary(graph, normedHeads(queryHeads, "q_norm"), inputs.rotary, rotaryDim, headDim);
  const key = applyPartialRotary(graph, normedHeads(split("k"), "k_norm"), inputs.rotary, rotaryDim, headDim);
  const value = graph.op("Transpose", [split("v")], { perm: toHeads });

  const presentKey = graph.op("Concat", [inputs.pastKey, key], { axis: 2 }, { output: `present.${index}.key` });
  const presentValue = graph.op("Concat", [inputs.pastValue, value], { axis: 2 }, { output: `present.${index}.value` });

  // Grouped-query attention without repeating K/V (as in qwen3-layer.ts).
  const group = attentionHeads / keyValueHeads;
  const scaled = graph.op("Mul", [query, graph.constant("float32", [1 / Math.sqrt(headDim)], [])]);
  const grouped = graph.op("Reshape", [scaled, graph.constant("int64", [0, keyValueHeads, group, -1, headDim])]);
  const groupAxis = graph.constant("int64", [2]);
  const keys = graph.op("Transpose", [graph.op("Unsqueeze", [presentKey, groupAxis])], { perm: [0, 1, 2, 4, 3] });
  const scores = graph.op("Add", [graph.op("MatMul", [grouped, keys]), inputs.attentionBias]);
  const probabilities = graph.op("Softmax", [scores], { axis: -1 });
  const context = graph.op("MatMul", [probabilities, graph.op("Unsqueeze", [presentValue, groupAxis])]);
  const merged = graph.op("Reshape", [
    graph.op("Transpose", [graph.op("Reshape", [context, graph.constant("int64", [0, attentionHeads, -1, headDim])])], { perm: toHeads }),
    graph.constant("int64", [0, 0, attentionHeads * headDim]),
  ]);
  const gated = graph.op("Mul", [merged, graph.op("Sigmoid", [gate])]);
  return graph.op("Add", [hidden, project(gated, "self_attn.o_proj", attentionHeads * headDim, hiddenSize)]);
}
