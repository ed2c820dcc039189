import { applyRotary, onesWeight, rmsNorm, silu } from "./graph-primitives.js";
import { linearProjection, type WeightFormat } from "./linear-projection.js";
import type { OnnxGraphBuilder } from "./onnx-graph-builder.js";
import type { Qwen3Shape } from "./qwen3-shape.js";

/** What one decoder layer reads besides its own weights. */
export interface Qwen3LayerInputs {
  index: number;
  shape: Qwen3Shape;
  format: WeightFormat;
  seed: number;
  /** The residual stream [batch, seq, hidden]. */
  hidden: string;
  /** `past_key_values.{index}.key` / `.value` [batch, kvHeads, past, headDim]. */
  pastKey: string;
  pastValue: string;
  /** Additive attention mask [batch, 1, 1, seq, total]: 0 where allowed, a large negative number elsewhere. */
  attentionBias: string;
  rotary: { cos: string; sin: string };
}

/**
 * One Qwen3 decoder layer: RMSNorm, grouped-query attention with per-head
 * q/k RMSNorm and RoPE over the cache, then a SiLU-gated MLP, each with a
 * residual add. Writes `present.{index}.key` / `.value` and returns the new
 * residual stream.
 */
export function addQwen3Layer(graph: OnnxGraphBuilder, inputs: Qwen3LayerInputs): string {
  const { index, shape, format, seed, hidden } = inputs;
  const { hiddenSize, attentionHeads, keyValueHeads, headDim, intermediateSize, rmsNormEps } = shape;
  const prefix = `model.layers.${index}`;
  const project = (x: string, name: string, inFeatures: number, outFeatures: number): string =>
    linearProjection(graph, x, { name: `${prefix}.${name}`, inFeatures, outFeatures, format, seed });
  const toHeads = [0, 2, 1, 3];

  const normed = rmsNorm(graph, hidden, onesWeight(graph, `${prefix}.input_layernorm.weight`, hiddenSize), rmsNormEps);
  const heads = (name: string, count: number, norm: string | undefined): string => {
    const split = graph.op("Reshape", [project(normed, `self_attn.${name}_proj`, hiddenSize, count * headDim), graph.constant("int64", [0, 0, count, headDim])]);
    const normedHeads = norm === undefined ? split : rmsNorm(graph, split, onesWeight(graph, `${prefix}.self_attn.${norm}.weight`, headDim), rmsNormEps);
    return graph.op("Transpose", [normedHeads], { perm: toHeads });
  };
  const query = applyRotary(graph, heads("q", attentionHeads, "q_norm"), inputs.rotary, headDim);
  const key = applyRotary(graph, heads("k", keyValueHeads, "k_norm"), inputs.rotary, headDim);
  const value = heads("v", keyValueHeads, undefined);

  const presentKey = graph.op("Concat", [inputs.pastKey, key], { axis: 2 }, { output: `present.${index}.key` });
  const presentValue = graph.op("Concat", [inputs.pastValue, value], { axis: 2 }, { output: `present.${index}.value` });

  // Grouped-query attention without repeating K/V: queries become
  // [batch, kvHeads, group, seq, headDim] and MatMul broadcasts each K/V head
  // over its group.
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
  const attended = graph.op("Add", [hidden, project(merged, "self_attn.o_proj", attentionHeads * headDim, hiddenSize)]);

  const mlpInput = rmsNorm(graph, attended, onesWeight(graph, `${prefix}.post_attention_layernorm.weight`, hiddenSize), rmsNormEps);
  const gate = silu(graph, project(mlpInput, "mlp.gate_proj", hiddenSize, intermediateSize));
  const up = project(mlpInput, "mlp.up_proj", hiddenSize, intermediateSize);
  const down = project(graph.op("Mul", [gate, up]), "mlp.down_proj", intermediateSize, hiddenSize);
  return graph.op("Add", [attended, down]);
}
