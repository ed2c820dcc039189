/**
 * The dimensions of a Qwen3 decoder, named as in the prose; `qwen3ConfigJson`
 * maps them to config.json's keys.
 */
export interface Qwen3Shape {
  layers: number;
  hiddenSize: number;
  /** Query heads. */
  attentionHeads: number;
  /** Key/value heads (grouped-query attention: `attentionHeads` is a multiple). */
  keyValueHeads: number;
  headDim: number;
  /** The SiLU MLP's inner width. */
  intermediateSize: number;
  /** Rows of the embedding and columns of the logits (151,936 for every Qwen3; the tokenizer uses 151,669). */
  vocabSize: number;
  ropeTheta: number;
  rmsNormEps: number;
  maxPositionEmbeddings: number;
}

/** Qwen3-0.6B's exact shapes (its config.json on the model hub). */
export const QWEN3_0_6B_SHAPE: Readonly<Qwen3Shape> = {
  layers: 28,
  hiddenSize: 1024,
  attentionHeads: 16,
  keyValueHeads: 8,
  headDim: 128,
  intermediateSize: 3072,
  vocabSize: 151_936,
  ropeTheta: 1_000_000,
  rmsNormEps: 1e-6,
  maxPositionEmbeddings: 40_960,
};

/**
 * The `tiny` model: Qwen3's architecture and full vocabulary with a 32-wide
 * residual stream and two layers, so a token costs well under a millisecond
 * of model time and what is measured is the runtime's own overhead.
 */
export const TINY_QWEN3_SHAPE: Readonly<Qwen3Shape> = {
  ...QWEN3_0_6B_SHAPE,
  layers: 2,
  hiddenSize: 32,
  attentionHeads: 4,
  keyValueHeads: 2,
  headDim: 8,
  intermediateSize: 96,
};

/** Throws when the shape cannot form a Qwen3 graph. */
export function assertQwen3Shape(shape: Qwen3Shape): void {
  if (shape.attentionHeads % shape.keyValueHeads !== 0) {
    throw new Error(`attentionHeads (${shape.attentionHeads}) must be a multiple of keyValueHeads (${shape.keyValueHeads})`);
  }
  if (shape.headDim % 2 !== 0) throw new Error(`headDim (${shape.headDim}) must be even for rotary embeddings`);
}
