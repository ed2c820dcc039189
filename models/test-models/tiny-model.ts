import { buildQwen3DecoderGraph } from "./qwen3-decoder-graph.js";
import { TINY_QWEN3_SHAPE, type Qwen3Shape } from "./qwen3-shape.js";
import type { TestModelDefinition } from "./test-model-definition.js";

/** Options for `tinyModel`. */
export interface TinyModelOptions {
  /** Folder name (default `"tiny"`). */
  id?: string;
  /** Default `TINY_QWEN3_SHAPE`: 2 layers, hidden 32, 4 query / 2 key-value heads of 8, the full 151,936 vocabulary. */
  shape?: Qwen3Shape;
  /** Weight seed (default 0). */
  seed?: number;
}

/**
 * `tiny`: a random-weight Qwen3 with a procedural embedding, a few hundred KB
 * on disk, that generates (nonsense) at hundreds of tokens a second. It
 * measures the runtime's per-token overhead and gives Stop something to stop.
 * Loads with `dtype: "fp32"`; it takes `num_logits_to_keep`.
 */
export function tinyModel(options: TinyModelOptions = {}): TestModelDefinition {
  const shape = options.shape ?? TINY_QWEN3_SHAPE;
  const seed = options.seed ?? 0;
  return {
    id: options.id ?? "tiny",
    dtype: "fp32",
    description: "random-weight Qwen3, 2 layers of width 32, full vocabulary: per-token overhead and Stop tests",
    shape,
    options: { shape, seed },
    approximateBytes: 12_000_000,
    createGraph: () => buildQwen3DecoderGraph({ shape, seed, proceduralEmbedding: true, logitsToKeepInput: true }),
  };
}
