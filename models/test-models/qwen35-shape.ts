/** What a Qwen3.5 decoder layer mixes tokens with: Gated DeltaNet or softmax attention with a KV cache. */
export type Qwen35LayerType = "linear_attention" | "full_attention";

/**
 * The dimensions of a Qwen3.5 text decoder (`qwen3_5_text`), named as in the
 * prose; `qwen35ConfigJson` maps them to config.json's keys.
 */
export interface Qwen35Shape {
  /** One entry per layer. */
  layerTypes: readonly Qwen35LayerType[];
  hiddenSize: number;
  /** Full attention: query heads, key/value heads (grouped-query), head width. */
  attentionHeads: number;
  keyValueHeads: number;
  headDim: number;
  /** Fraction of each full-attention head's dims that rotate (0.25: 64 of 256). */
  partialRotaryFactor: number;
  /** Interleaved M-RoPE sections (text, height, width frequencies); they sum to the rotary dims / 2. */
  mropeSection: readonly [number, number, number];
  /** Linear attention (Gated DeltaNet): key heads, value heads (a multiple), their widths, the causal conv's kernel. */
  linearKeyHeads: number;
  linearValueHeads: number;
  linearKeyHeadDim: number;
  linearValueHeadDim: number;
  convKernel: number;
  /** The SiLU MLP's inner width. */
  intermediateSize: number;
  /** Rows of the embedding and columns of the logits. */
  vocabSize: number;
  ropeTheta: number;
  rmsNormEps: number;
  maxPositionEmbeddings: number;
}

/** `(["linear_attention"] * 3 + ["full_attention"]) * groups`: Qwen3.5's layout (every 4th layer attends). */
export function qwen35LayerTypes(groups: number): Qwen35LayerType[] {
  return Array.from({ length: groups * 4 }, (_, index) => ((index + 1) % 4 === 0 ? "full_attention" : "linear_attention"));
}

/**
 * Qwen3.5-0.8B's text shapes (its config.json's `text_config`,
 * Qwen3.5's published config.json), except the vocabulary: 151,936,
 * Qwen3's embedding rows, because the test models use Qwen3's tokenizer
 * (Qwen3.5's 248,320-token one is not available here). The real 0.8B's
 * embedding + LM head is 254M parameters; this one's is 156M.
 */
export const QWEN35_0_8B_SHAPE: Readonly<Qwen35Shape> = {
  layerTypes: qwen35LayerTypes(6),
  hiddenSize: 1024,
  attentionHeads: 8,
  keyValueHeads: 2,
  headDim: 256,
  partialRotaryFactor: 0.25,
  mropeSection: [11, 11, 10],
  linearKeyHeads: 16,
  linearValueHeads: 16,
  linearKeyHeadDim: 128,
  linearValueHeadDim: 128,
  convKernel: 4,
  intermediateSize: 3584,
  vocabSize: 151_936,
  ropeTheta: 10_000_000,
  rmsNormEps: 1e-6,
  maxPositionEmbeddings: 262_144,
};

/**
 * The tiny Qwen3.5: the same structure (3 linear + 1 full layer, gated
 * attention with partial interleaved M-RoPE, Gated DeltaNet states, the full
 * vocabulary) at width 32, so tests load and run it in milliseconds.
 */
export const TINY_QWEN35_SHAPE: Readonly<Qwen35Shape> = {
  ...QWEN35_0_8B_SHAPE,
  layerTypes: qwen35LayerTypes(1),
  hiddenSize: 32,
  attentionHeads: 4,
  keyValueHeads: 2,
  headDim: 32,
  mropeSection: [2, 1, 1],
  linearKeyHeads: 2,
  linearValueHeads: 4,
  linearKeyHeadDim: 8,
  linearValueHeadDim: 8,
  intermediateSize: 96,
};

/** Rotating dims of a full-attention head (`headDim * partialRotaryFactor`). */
export function qwen35RotaryDim(shape: Qwen35Shape): number {
  return Math.round(shape.headDim * shape.partialRotaryFactor);
}

/** Channels of the linear layers' causal conv (and of `past_conv.i`): q, k and v side by side. */
export function qwen35ConvChannels(shape: Qwen35Shape): number {
  return 2 * shape.linearKeyHeads * shape.linearKeyHeadDim + shape.linearValueHeads * shape.linearValueHeadDim;
}

/** Throws when the shape cannot form a Qwen3.5 graph. */
export function assertQwen35Shape(shape: Qwen35Shape): void {
  if (shape.layerTypes.length === 0) throw new Error("a Qwen3.5 shape needs at least one layer");
  if (shape.attentionHeads % shape.keyValueHeads !== 0) {
    throw new Error(`attentionHeads (${shape.attentionHeads}) must be a multiple of keyValueHeads (${shape.keyValueHeads})`);
  }
  if (shape.linearValueHeads % shape.linearKeyHeads !== 0) {
    throw new Error(`linearValueHeads (${shape.linearValueHeads}) must be a multiple of linearKeyHeads (${shape.linearKeyHeads})`);
  }
  const rotary = qwen35RotaryDim(shape);
  if (rotary % 2 !== 0 || rotary > shape.headDim) throw new Error(`rotary dims (${rotary}) must be even and at most headDim`);
  const sections = shape.mropeSection.reduce((sum, section) => sum + section, 0);
  if (sections !== rotary / 2) throw new Error(`mropeSection sums to ${sections}, not the ${rotary / 2} rotary frequencies`);
  if (shape.convKernel < 1) throw new Error("convKernel must be at least 1");
}

/** Qwen3.5's own vocabulary (its embedding rows and logits), which the hub's exports have. */
export const QWEN35_VOCAB_SIZE = 248_320;

/**
 * Qwen3.5-2B's text shapes (`text_config` of onnx-community/Qwen3.5-2B-ONNX's
 * config.json, the hub's Qwen3.5-2B config.json at its pinned commit) with its real
 * 248,320-token vocabulary: the hub-layout export built in these shapes has
 * the hub's tensor shapes, so its bytes and memory are the real model's.
 */
export const QWEN35_2B_SHAPE: Readonly<Qwen35Shape> = {
  ...QWEN35_0_8B_SHAPE,
  hiddenSize: 2048,
  intermediateSize: 6144,
  vocabSize: QWEN35_VOCAB_SIZE,
};

/** Qwen3.5-4B's text shapes (the hub's Qwen3.5-4B config.json at its pinned commit): 32 layers, hidden 2560, 16 q / 4 kv heads, 32 linear value heads. */
export const QWEN35_4B_SHAPE: Readonly<Qwen35Shape> = {
  ...QWEN35_0_8B_SHAPE,
  layerTypes: qwen35LayerTypes(8),
  hiddenSize: 2560,
  attentionHeads: 16,
  keyValueHeads: 4,
  linearValueHeads: 32,
  intermediateSize: 9216,
  vocabSize: QWEN35_VOCAB_SIZE,
};
