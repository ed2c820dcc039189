import { byteLevelAlphabet } from "./byte-level-alphabet.js";

/** The parts of a Hugging Face `tokenizer.json` the constraint reads: a byte-level BPE vocabulary and its added tokens. */
export interface TokenizerJson {
  model: { type?: string; vocab: Record<string, number> };
  added_tokens?: { id: number; content: string; special?: boolean }[];
}

/** A tokenizer's vocabulary as the constraint reads it: built once per tokenizer, when a constrained generation first needs it. */
export interface Vocabulary {
  /** Size of the model's logits (may exceed the tokenizer's vocabulary; the rest are never allowed in a call). */
  vocabSize: number;
  /** Each id as the tokenizer writes it (byte-level characters); "" for special tokens and unused ids, which a call never holds. */
  encoded: string[];
  /** Ids that end a generation (never inside a call). */
  stopIds: number[];
  /** Milliseconds it took to build. */
  buildMs: number;
}

/**
 * Reads a byte-level BPE tokenizer's vocabulary by id, as the tokenizer
 * writes each token (GPT-2's byte-to-character map: vocabulary/byte-level-alphabet.ts),
 * for xgrammar and the constraint's own tables. Added tokens are written the
 * same way; special ones (end of turn, …) are empty, so they are never
 * allowed inside a call. No token is decoded here: ~25 ms for Qwen3's
 * 151,669 tokens; what is built from it is reused by content across
 * loads (tokenizer-state.ts).
 */
export function readVocabulary(json: TokenizerJson, options: { vocabSize: number; stopIds: readonly number[] }): Vocabulary {
  const started = performance.now();
  if (json.model.type !== undefined && json.model.type !== "BPE") {
    throw new TypeError(`The tool-call constraint reads byte-level BPE tokenizers only; this one is ${json.model.type}. Turn constrainToolCalls off for this model.`);
  }
  const encoded: string[] = new Array(options.vocabSize).fill("");
  const vocab = json.model.vocab;
  for (const token in vocab) {
    const id = vocab[token]!;
    if (id >= 0 && id < options.vocabSize) encoded[id] = token;
  }
  const encoder = new TextEncoder();
  const { toChar } = byteLevelAlphabet();
  for (const added of json.added_tokens ?? []) {
    if (added.id < 0 || added.id >= options.vocabSize) continue;
    encoded[added.id] = added.special ? "" : Array.from(encoder.encode(added.content), (byte) => toChar[byte]).join("");
  }
  const stopIds = [...new Set(options.stopIds)].filter((id) => id >= 0 && id < options.vocabSize);
  return { vocabSize: options.vocabSize, encoded, stopIds, buildMs: performance.now() - started };
}
