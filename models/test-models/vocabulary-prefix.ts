import { byteLevelAlphabet } from "../../worker/tool-call-constraint/vocabulary/byte-level-alphabet.js";
import type { Qwen3TokenizerFiles } from "./qwen3-tokenizer.js";

/**
 * How many of Qwen3's tokens a scripted model keeps (`withVocabularyPrefix`):
 * common English and JSON still tokenize close to the full tokenizer (about
 * 20% more tokens over this repository's README), while the file is 0.46 MB
 * instead of 10.6 MB. Measured in Node: building transformers.js's tokenizer
 * and the constraint's tables from it takes about a fifth of the time the
 * full one does, which every page that loads a scripted model pays.
 */
export const SCRIPTED_VOCABULARY_SIZE = 16_384;

interface BpeTokenizerJson {
  model: { vocab: Record<string, number>; merges: (string | [string, string])[] };
  added_tokens?: unknown[];
}

/**
 * Qwen3's tokenizer cut to the tokens with ids below `size`, with every
 * added token (`<|im_start|>`, `<tool_call>`, …) and the merges between
 * kept tokens. Ids keep their meaning. Byte-level BPE numbers a merged
 * token after its parts (the 256 byte tokens are ids 0-255), so the cut
 * still spells any text, only in more pieces, and a text encodes the same
 * way every time. For a weightless scripted model only: its graph reads
 * its script's ids from this tokenizer (scripted-model.ts). A model with
 * weights may emit any id of its logits, which must stay decodable.
 */
export function withVocabularyPrefix(files: Qwen3TokenizerFiles, size: number = SCRIPTED_VOCABULARY_SIZE): Qwen3TokenizerFiles {
  const json = JSON.parse(files.tokenizerJson) as BpeTokenizerJson;
  const vocab = Object.fromEntries(Object.entries(json.model.vocab).filter(([, id]) => id < size));
  const kept = (token: string) => vocab[token] !== undefined;
  const merges = json.model.merges.filter((merge) => {
    const [left, right] = typeof merge === "string" ? (merge.split(" ") as [string, string]) : merge;
    return kept(left) && kept(right) && kept(left + right);
  });
  const missing = byteLevelAlphabet().toChar.filter((char) => !kept(char));
  if (missing.length > 0) throw new Error(`withVocabularyPrefix: the first ${size} tokens lack ${missing.length} of the 256 byte tokens; this is not a byte-level BPE tokenizer numbered as Qwen3's.`);
  return {
    ...files,
    tokenizerJson: JSON.stringify({ ...json, model: { ...json.model, vocab, merges } }),
    version: `${files.version}+first-${size}`,
  };
}
