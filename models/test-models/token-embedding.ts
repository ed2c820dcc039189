import { INT8_STD, linearProjection, Q8_BLOCK_SIZE, q8BlockWeights, WEIGHT_STD, type WeightFormat } from "./linear-projection.js";
import type { OnnxGraphBuilder } from "./onnx-graph-builder.js";
import { fillRandomBytes, fillUniformFloat32, seedFromName } from "./seeded-random.js";

/** Options for `addTokenEmbedding`. */
export interface TokenEmbeddingOptions {
  vocabSize: number;
  hiddenSize: number;
  format: WeightFormat;
  /**
   * fp32 only: compute the table in the graph (`sin(id * f + phase)`) instead
   * of storing it. The graph then has no embedding weights at all and ONNX
   * Runtime folds the computation into a constant when it loads the model,
   * which keeps the `tiny` model at hundreds of KB despite the full vocabulary.
   */
  procedural?: boolean;
  seed: number;
}

/** The embedding lookup and the LM head that share (or mirror) its table. */
export interface TokenEmbedding {
  /** `input_ids` [batch, seq] -> hidden [batch, seq, hiddenSize], named `output` if given (e.g. a graph output `inputs_embeds`). */
  embed(inputIds: string, output?: string): string;
  /** hidden [batch, seq, hiddenSize] -> logits [batch, seq, vocabSize], named `output`. */
  logits(hidden: string, output: string): string;
}

const TABLE_NAME = "model.embed_tokens.weight";

function float32Table(graph: OnnxGraphBuilder, options: TokenEmbeddingOptions): string {
  const { vocabSize, hiddenSize, seed } = options;
  if (!options.procedural) {
    return graph.weight(TABLE_NAME, "float32", [vocabSize, hiddenSize], (target) =>
      fillUniformFloat32(new Float32Array(target.buffer, target.byteOffset, target.byteLength / 4), seedFromName(TABLE_NAME, seed), WEIGHT_STD),
    );
  }
  const frequencies = new Float32Array(hiddenSize);
  const phases = new Float32Array(hiddenSize);
  fillUniformFloat32(frequencies, seedFromName(`${TABLE_NAME}.frequencies`, seed), 0.5);
  fillUniformFloat32(phases, seedFromName(`${TABLE_NAME}.phases`, seed), 1.8);
  const ids = graph.op("Range", [
    graph.constant("float32", [0], []),
    graph.constant("float32", [vocabSize], []),
    graph.constant("float32", [1], []),
  ]);
  const column = graph.op("Unsqueeze", [ids, graph.constant("int64", [1])]);
  // Frequencies in (0.5, 2.2): far enough from 0 that neighbouring ids differ.
  const angles = graph.op("Add", [
    graph.op("Mul", [column, graph.constant("float32", [...frequencies].map((value) => 1.35 + value))]),
    graph.constant("float32", [...phases]),
  ]);
  // Scaled to the stored table's spread: at unit amplitude the embedding
  // swamps the layers and a tied head just repeats the last token.
  return graph.op("Mul", [graph.op("Sin", [angles]), graph.constant("float32", [WEIGHT_STD * Math.SQRT2], [])]);
}

/** A tied LM head: `hidden @ table^T` through Gemm's transB, so the table is never copied or transposed. */
function tiedLogits(graph: OnnxGraphBuilder, hidden: string, table: string, options: TokenEmbeddingOptions, output: string): string {
  const rows = graph.op("Reshape", [hidden, graph.constant("int64", [-1, options.hiddenSize])]);
  const product = graph.op("Gemm", [rows, table], { transB: 1 });
  const leading = graph.op("Slice", [graph.op("Shape", [hidden]), graph.constant("int64", [0]), graph.constant("int64", [2])]);
  const shape = graph.op("Concat", [leading, graph.constant("int64", [options.vocabSize])], { axis: 0 });
  return graph.op("Reshape", [product, shape], {}, { output });
}

/**
 * The token embedding and LM head of a Qwen3 decoder (Qwen3-0.6B ties them):
 * - fp32: one float table, gathered for input and used transposed for logits;
 * - q8: an int8 table gathered then `DequantizeLinear`-ed, and an int8 LM
 *   head of its own ([hidden, vocab], `MatMulInteger` cannot transpose);
 * - q4: a float table for the lookup and a `MatMulNBits` LM head, which
 *   stores its weights vocabulary-major already;
 * - q8-blocks: a `com.microsoft` `GatherBlockQuantized` (bits 8) table and
 *   a `MatMulNBits` (bits 8) LM head of its own, as the hub's Qwen3.5
 *   `quantized` exports store them (the head's bytes equal the table's).
 *   Each is declared when first used, so the lookup and the head can live
 *   in separate graphs (the multimodal export's `embed_tokens` and
 *   `decoder_model_merged` sessions).
 */
export function addTokenEmbedding(graph: OnnxGraphBuilder, options: TokenEmbeddingOptions): TokenEmbedding {
  const { vocabSize, hiddenSize, format, seed } = options;
  if (options.procedural && format !== "fp32") throw new Error("a procedural embedding is fp32 only");
  const lmHead = (hidden: string, output: string): string =>
    linearProjection(graph, hidden, { name: "lm_head", inFeatures: hiddenSize, outFeatures: vocabSize, format, seed, output });

  if (format === "q8-blocks") {
    return {
      embed: (inputIds, output) => {
        const { packed, scales, zeroPoints } = q8BlockWeights(graph, "model.embed_tokens", vocabSize, hiddenSize, seed, "gather");
        return graph.op(
          "GatherBlockQuantized",
          [packed, inputIds, scales, zeroPoints],
          { bits: 8, block_size: Q8_BLOCK_SIZE, gather_axis: 0, quantize_axis: 1 },
          { domain: "com.microsoft", ...(output === undefined ? {} : { output }) },
        );
      },
      logits: lmHead,
    };
  }
  if (format === "q8") {
    const table = graph.weight(`${TABLE_NAME}_quantized`, "int8", [vocabSize, hiddenSize], (target) =>
      fillRandomBytes(target, seedFromName(TABLE_NAME, seed)),
    );
    const scale = graph.constant("float32", [WEIGHT_STD / INT8_STD], []);
    const zeroPoint = graph.constant("int8", [0], []);
    return {
      embed: (inputIds, output) =>
        graph.op("DequantizeLinear", [graph.op("Gather", [table, inputIds], { axis: 0 }), scale, zeroPoint], {}, output === undefined ? {} : { output }),
      logits: lmHead,
    };
  }
  const table = float32Table(graph, options);
  return {
    embed: (inputIds, output) => graph.op("Gather", [table, inputIds], { axis: 0 }, output === undefined ? {} : { output }),
    logits: format === "q4" ? lmHead : (hidden, output) => tiedLogits(graph, hidden, table, options, output),
  };
}
