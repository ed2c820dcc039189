import { dimension, keepLastPositions, onesWeight, rmsNorm, rotaryTables } from "./graph-primitives.js";
import type { WeightFormat } from "./linear-projection.js";
import { OnnxGraphBuilder, type OnnxGraph } from "./onnx-graph-builder.js";
import { addQwen3Layer } from "./qwen3-layer.js";
import { assertQwen3Shape, type Qwen3Shape } from "./qwen3-shape.js";
import { addTokenEmbedding } from "./token-embedding.js";

/** Options for `buildQwen3DecoderGraph`. */
export interface Qwen3DecoderGraphOptions {
  shape: Qwen3Shape;
  /** How the weights are stored (default `"fp32"`). */
  format?: WeightFormat;
  /** fp32 only: compute the embedding table in the graph instead of storing it (default false). */
  proceduralEmbedding?: boolean;
  /** Seed for the random weights (default 0). */
  seed?: number;
  /**
   * Add transformers.js's optional `num_logits_to_keep` input (default false):
   * generation then computes logits for the last position only.
   */
  logitsToKeepInput?: boolean;
}

/** The large negative number masked attention scores get (finite, so a fully masked padding row stays NaN-free). */
const MASKED = -1e9;

/**
 * A random-weight Qwen3 causal LM with the inputs and outputs transformers.js
 * feeds a `qwen3` model: `input_ids`, `attention_mask`, `position_ids`,
 * `past_key_values.{i}.key/value` [batch_size, kvHeads, past_sequence_length,
 * headDim] in; `logits` and `present.{i}.key/value` out.
 */
export function buildQwen3DecoderGraph(options: Qwen3DecoderGraphOptions): OnnxGraph {
  const { shape, format = "fp32", seed = 0 } = options;
  assertQwen3Shape(shape);
  const graph = new OnnxGraphBuilder("qwen3");
  const tokens = ["batch_size", "sequence_length"];
  const inputIds = graph.input("input_ids", "int64", tokens);
  const attentionMask = graph.input("attention_mask", "int64", ["batch_size", "total_sequence_length"]);
  const positionIds = graph.input("position_ids", "int64", tokens);
  const cacheShape = ["batch_size", shape.keyValueHeads, "past_sequence_length", shape.headDim];
  const past = Array.from({ length: shape.layers }, (_, index) => ({
    key: graph.input(`past_key_values.${index}.key`, "float32", cacheShape),
    value: graph.input(`past_key_values.${index}.value`, "float32", cacheShape),
  }));
  const logitsToKeep = options.logitsToKeepInput ? graph.input("num_logits_to_keep", "int64", []) : undefined;

  // Causal and padding mask over [past + new] keys for the new queries, which
  // sit at total - seq .. total - 1 (transformers.js's attention_mask spans the cache).
  const total = dimension(graph, attentionMask, 1);
  const keyIndex = graph.op("Range", [graph.constant("int64", [0], []), total, graph.constant("int64", [1], [])]);
  const queryIndex = graph.op("Range", [graph.op("Sub", [total, dimension(graph, inputIds, 1)]), total, graph.constant("int64", [1], [])]);
  const causal = graph.op("LessOrEqual", [
    graph.op("Unsqueeze", [keyIndex, graph.constant("int64", [0])]),
    graph.op("Unsqueeze", [queryIndex, graph.constant("int64", [1])]),
  ]);
  const notPadding = graph.op("Cast", [graph.op("Unsqueeze", [attentionMask, graph.constant("int64", [1, 2, 3])])], { to: 9 });
  const attentionBias = graph.op("Where", [
    graph.op("And", [causal, notPadding]),
    graph.constant("float32", [0], []),
    graph.constant("float32", [MASKED], []),
  ]);
  const rotary = rotaryTables(graph, positionIds, shape.headDim, shape.ropeTheta);

  const embedding = addTokenEmbedding(graph, {
    vocabSize: shape.vocabSize,
    hiddenSize: shape.hiddenSize,
    format,
    procedural: options.proceduralEmbedding ?? false,
    seed,
  });
  let hidden = embedding.embed(inputIds);
  for (let index = 0; index < shape.layers; index++) {
    const cache = past[index]!;
    hidden = addQwen3Layer(graph, { index, shape, format, seed, hidden, pastKey: cache.key, pastValue: cache.value, attentionBias, rotary });
  }
  hidden = rmsNorm(graph, hidden, onesWeight(graph, "model.norm.weight", shape.hiddenSize), shape.rmsNormEps);
  if (logitsToKeep !== undefined) hidden = keepLastPositions(graph, hidden, logitsToKeep);
  embedding.logits(hidden, "logits");

  graph.output("logits", "float32", ["batch_size", logitsToKeep === undefined ? "sequence_length" : "logits_length", shape.vocabSize]);
  const presentShape = ["batch_size", shape.keyValueHeads, "total_sequence_length", shape.headDim];
  for (let index = 0; index < shape.layers; index++) {
    graph.output(`present.${index}.key`, "float32", presentShape);
    graph.output(`present.${index}.value`, "float32", presentShape);
  }
  return graph.build();
}
