import { byteLevelAlphabet } from "./byte-level-alphabet.js";
import type { XGrammar } from "./load-xgrammar.js";

type XGrammarModule = typeof import("@mlc-ai/web-xgrammar");
type TokenizerInfo = InstanceType<XGrammarModule["TokenizerInfo"]>;
type GrammarCompiler = Awaited<ReturnType<XGrammarModule["GrammarCompiler"]["createGrammarCompiler"]>>;

/** The parts of a Hugging Face `tokenizer.json` the table reads: a byte-level BPE vocabulary and its added tokens. */
export interface TokenizerJson {
  model: { type?: string; vocab: Record<string, number> };
  added_tokens?: { id: number; content: string; special?: boolean }[];
}

/** A tokenizer's vocabulary as text: built once per tokenizer (synchronously), before xgrammar is needed. */
export interface Vocabulary {
  /** Size of the model's logits (may exceed the tokenizer's vocabulary; the rest are never allowed in a call). */
  vocabSize: number;
  /** Each id's text (UTF-8 decoded bytes; a partial character becomes U+FFFD); "" for special tokens and unused ids. */
  texts: string[];
  /** Each id as the tokenizer writes it (byte-level characters); "" for special tokens, which xgrammar never allows. */
  encoded: string[];
  /** Ids that end a generation (never inside a call). */
  stopIds: number[];
  /** Milliseconds it took to build. */
  buildMs: number;
}

/** xgrammar's side of a tokenizer: its TokenizerInfo and a compiler (with xgrammar's own cache) bound to it. */
export interface TokenizerTable {
  vocabulary: Vocabulary;
  info: TokenizerInfo;
  compiler: GrammarCompiler;
  /** Milliseconds xgrammar took to build its TokenizerInfo (reported by the bench). */
  buildMs: number;
}

/**
 * Reads a byte-level BPE tokenizer's vocabulary by id: each token as written
 * (for xgrammar) and as text (for the call opener, the thinking block and the
 * closing heuristic). Added tokens are encoded the same way; special ones
 * (end of turn, …) are empty, so xgrammar never allows them inside a call.
 */
export function readVocabulary(json: TokenizerJson, options: { vocabSize: number; stopIds: readonly number[] }): Vocabulary {
  const started = performance.now();
  if (json.model.type !== undefined && json.model.type !== "BPE") {
    throw new TypeError(`The tool-call constraint reads byte-level BPE tokenizers only; this one is ${json.model.type}. Turn constrainToolCalls off for this model.`);
  }
  const { toByte, toChar } = byteLevelAlphabet();
  const encoded: string[] = new Array(options.vocabSize).fill("");
  const texts: string[] = new Array(options.vocabSize).fill("");
  const decoder = new TextDecoder("utf-8", { fatal: false });
  const bytes = new Uint8Array(1024);
  for (const [token, id] of Object.entries(json.model.vocab)) {
    if (id < 0 || id >= options.vocabSize) continue;
    encoded[id] = token;
    let length = 0;
    for (const char of token) {
      const byte = toByte.get(char);
      if (byte === undefined || length === bytes.length) break;
      bytes[length++] = byte;
    }
    texts[id] = decoder.decode(bytes.subarray(0, length));
  }
  const encoder = new TextEncoder();
  for (const added of json.added_tokens ?? []) {
    if (added.id < 0 || added.id >= options.vocabSize) continue;
    encoded[added.id] = added.special ? "" : Array.from(encoder.encode(added.content), (byte) => toChar[byte]).join("");
    texts[added.id] = added.special ? "" : added.content;
  }
  const stopIds = [...new Set(options.stopIds)].filter((id) => id >= 0 && id < options.vocabSize);
  return { vocabSize: options.vocabSize, texts, encoded, stopIds, buildMs: performance.now() - started };
}

/**
 * xgrammar's TokenizerInfo and a compiler for `vocabulary`. Nothing of it is
 * serialisable in web-xgrammar 0.1.27 (its TokenizerInfo has no
 * serialisation), so it is built once per worker and tokenizer and kept in
 * memory, not in IndexedDB: the bench measures what the build costs.
 */
export async function buildTokenizerTable(xgrammar: XGrammar, vocabulary: Vocabulary): Promise<TokenizerTable> {
  const started = performance.now();
  const info = await xgrammar.TokenizerInfo.createTokenizerInfo(vocabulary.encoded, "byte_level", false, vocabulary.vocabSize, vocabulary.stopIds);
  // xgrammar's own cache keys grammars by their printed form and parses that again, and its printer writes
  // U+0080-U+00FF as `\xHH`, which the parser reads on into a following hex digit ("ïc" becomes "໼"): off.
  // The constraint keeps its compiled grammars itself, by tool set.
  const compiler = await xgrammar.GrammarCompiler.createGrammarCompiler(info, false);
  return { vocabulary, info, compiler, buildMs: performance.now() - started };
}
