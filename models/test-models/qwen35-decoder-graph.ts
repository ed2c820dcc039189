import { dimension, keepLastPositions, onesWeight, rmsNorm, silu } from "./graph-primitives.js";
import { linearProjection, type WeightFormat } from "./linear-projection.js";
import { OnnxGraphBuilder, type OnnxGraph } from "./onnx-graph-builder.js";
import { addQwen35Attention, mropeTables } from "./qwen35-attention-layer.js";
import { addQwen35LinearAttention, qwen35ConvStateLength, type Qwen35DeltaNetLayout } from "./qwen35-gated-deltanet-layer.js";
import { assertQwen35Shape, qwen35ConvChannels, type Qwen35Shape } from "./qwen35-shape.js";
import { addTokenEmbedding } from "./token-embedding.js";

/** Options for `buildQwen35DecoderGraph`. */
export interface Qwen35DecoderGraphOptions {
  shape: Qwen35Shape;
  /** How the weights are stored (default `"fp32"`). */
  format?: WeightFormat;
  /** fp32 only: compute the embedding table in the graph instead of storing it (default false). */
  proceduralEmbedding?: boolean;
  /** Seed for the random weights (default 0). */
  seed?: number;
  /**
   * What the graph reads (default `"input_ids"`). `"inputs_embeds"`
   * [batch_size, sequence_length, hidden] is the multimodal export's
   * `decoder_model_merged`: the embedding lives in its own `embed_tokens`
   * session, and transformers.js feeds this graph what that one returns.
   */
  input?: "input_ids" | "inputs_embeds";
  /**
   * Declare the `num_logits_to_keep` input (default true). The hub's
   * multimodal Qwen3.5 decoder is fed without one (its graph has no such
   * input), so it computes logits at every prompt position.
   */
  logitsToKeep?: boolean;
  /** How the gated-DeltaNet layers are written (default `"opt"`, as the hub's -ONNX-OPT exports; see `Qwen35DeltaNetLayout`). */
  deltaNet?: Qwen35DeltaNetLayout;
}

/** The large negative number masked attention scores get. */
const MASKED = -1e9;

/** The ONNX names and shapes of a Qwen3.5 graph's cache inputs, in layer order (what transformers.js 4.3.2 feeds). */
export function qwen35CacheInputs(shape: Qwen35Shape, deltaNet: Qwen35DeltaNetLayout = "opt"): { name: string; dims: (number | string)[] }[] {
  const kv = ["batch_size", shape.keyValueHeads, "past_sequence_length", shape.headDim];
  return shape.layerTypes.flatMap((type, index) =>
    type === "full_attention"
      ? [
          { name: `past_key_values.${index}.key`, dims: kv },
          { name: `past_key_values.${index}.value`, dims: kv },
        ]
      : [
          { name: `past_conv.${index}`, dims: ["batch_size", qwen35ConvChannels(shape), qwen35ConvStateLength(shape, deltaNet)] },
          { name: `past_recurrent.${index}`, dims: ["batch_size", shape.linearValueHeads, shape.linearKeyHeadDim, shape.linearValueHeadDim] },
        ],
  );
}

/**
 * A random-weight Qwen3.5 text decoder (`qwen3_5_text`) with the inputs and
 * outputs transformers.js 4.3.2 feeds one:
 *
 * - in: `input_ids` [batch_size, sequence_length], `attention_mask`
 *   [batch_size, total_sequence_length], `position_ids` [3, batch_size,
 *   sequence_length] (M-RoPE rows; equal for text), `num_logits_to_keep`
 *   (int64 scalar), and per layer i: `past_conv.i` [batch_size,
 *   convChannels, convKernel - 1] (`convKernel` in the closed-form layout)
 *   + `past_recurrent.i` [batch_size, valueHeads,
 *   keyHeadDim, valueHeadDim] (linear attention), or
 *   `past_key_values.i.key/value` [batch_size, kvHeads,
 *   past_sequence_length, headDim] (full attention);
 * - out: `logits` [batch_size, logits_length, vocab], `present_conv.i`,
 *   `present_recurrent.i`, `present.i.key/value` (total_sequence_length).
 *
 * With `input: "inputs_embeds"` it reads `inputs_embeds` instead of
 * `input_ids`, and with `logitsToKeep: false` it has no `num_logits_to_keep`
 * (logits at every new position), as the hub's multimodal export does.
 *
 * Every symbolic dim but `batch_size` and the sequence lengths is a number:
 * transformers.js builds the empty first-step states from the session's
 * input metadata, resolving only `batch_size` and zeroing the rest.
 */
export function buildQwen35DecoderGraph(options: Qwen35DecoderGraphOptions): OnnxGraph {
  const { shape, format = "fp32", seed = 0, deltaNet = "opt" } = options;
  assertQwen35Shape(shape);
  const graph = new OnnxGraphBuilder("qwen3_5_text");
  const int64 = (...values: number[]): string => graph.constant("int64", values);
  const fromEmbeddings = options.input === "inputs_embeds";
  // `input_ids` [batch, seq] or `inputs_embeds` [batch, seq, hidden]: either gives the new tokens' count.
  const mainInput = fromEmbeddings
    ? graph.input("inputs_embeds", "float32", ["batch_size", "sequence_length", shape.hiddenSize])
    : graph.input("input_ids", "int64", ["batch_size", "sequence_length"]);
  const attentionMask = graph.input("attention_mask", "int64", ["batch_size", "total_sequence_length"]);
  const positionIds = graph.input("position_ids", "int64", [3, "batch_size", "sequence_length"]);
  const cache = new Map(qwen35CacheInputs(shape, deltaNet).map(({ name, dims }) => [name, graph.input(name, "float32", dims)]));
  const logitsToKeep = (options.logitsToKeep ?? true) ? graph.input("num_logits_to_keep", "int64", []) : undefined;

  // Full attention: causal and padding mask over [past + new] keys.
  const total = dimension(graph, attentionMask, 1);
  const length = dimension(graph, mainInput, 1);
  const zero = graph.constant("int64", [0], []);
  const one = graph.constant("int64", [1], []);
  const keyIndex = graph.op("Range", [zero, total, one]);
  const queryIndex = graph.op("Range", [graph.op("Sub", [total, length]), total, one]);
  const causal = graph.op("LessOrEqual", [graph.op("Unsqueeze", [keyIndex, int64(0)]), graph.op("Unsqueeze", [queryIndex, int64(1)])]);
  const notPadding = graph.op("Cast", [graph.op("Unsqueeze", [attentionMask, int64(1, 2, 3)])], { to: 9 });
  const attentionBias = graph.op("Where", [graph.op("And", [causal, notPadding]), graph.constant("float32", [0], []), graph.constant("float32", [MASKED], [])]);
  const rotary = mropeTables(graph, positionIds, shape);

  // Linear attention: the new tokens' mask and causality among them.
  const newTokenMask = graph.op("Cast", [graph.op("Slice", [attentionMask, graph.op("Neg", [graph.op("Reshape", [length, int64(1)])]), int64(2 ** 62), int64(1)])], { to: 1 });
  const newIndex = graph.op("Range", [zero, length, one]);
  const newCausal = graph.op("LessOrEqual", [graph.op("Unsqueeze", [newIndex, int64(0)]), graph.op("Unsqueeze", [newIndex, int64(1)])]);

  const embedding = addTokenEmbedding(graph, { vocabSize: shape.vocabSize, hiddenSize: shape.hiddenSize, format, procedural: options.proceduralEmbedding ?? false, seed });
  let hidden = fromEmbeddings ? mainInput : embedding.embed(mainInput);
  shape.layerTypes.forEach((type, index) => {
    const common = { index, shape, format, seed, hidden };
    hidden =
      type === "full_attention"
        ? addQwen35Attention(graph, { ...common, pastKey: cache.get(`past_key_values.${index}.key`)!, pastValue: cache.get(`past_key_values.${index}.value`)!, attentionBias, rotary })
        : addQwen35LinearAttention(graph, { ...common, layout: deltaNet, pastConv: cache.get(`past_conv.${index}`)!, pastRecurrent: cache.get(`past_recurrent.${index}`)!, newTokenMask, causal: newCausal });
    // The SiLU MLP every Qwen3.5 layer ends with.
    const prefix = `model.layers.${index}`;
    const project = (x: string, name: string, inFeatures: number, outFeatures: number): string =>
      linearProjection(graph, x, { name: `${prefix}.${name}`, inFeatures, outFeatures, format, seed });
    const mlpInput = rmsNorm(graph, hidden, onesWeight(graph, `${prefix}.post_attention_layernorm.weight`, shape.hiddenSize), shape.rmsNormEps);
    const gate = silu(graph, project(mlpInput, "mlp.gate_proj", shape.hiddenSize, shape.intermediateSize));
    const up = project(mlpInput, "mlp.up_proj", shape.hiddenSize, shape.intermediateSize);
    hidden = graph.op("Add", [hidden, project(graph.op("Mul", [gate, up]), "mlp.down_proj", shape.intermediateSize, shape.hiddenSize)]);
  });
  hidden = rmsNorm(graph, hidden, onesWeight(graph, "model.norm.weight", shape.hiddenSize), shape.rmsNormEps);
  embedding.logits(logitsToKeep === undefined ? hidden : keepLastPositions(graph, hidden, logitsToKeep), "logits");

  graph.output("logits", "float32", ["batch_size", "logits_length", shape.vocabSize]);
  for (const { name, dims } of qwen35CacheInputs(shape, deltaNet)) {
    const present = name.startsWith("past_key_values.") ? name.replace("past_key_values.", "present.") : name.replace("past_", "present_");
    graph.output(present, "float32", dims.map((dim) => (dim === "past_sequence_length" ? "total_sequence_length" : dim)));
  }
  return graph.build();
}
