import { readVocabulary, type TokenizerJson, type TokenizerTable, type Vocabulary } from "./tokenizer-table.js";
import { cachedVocabulary, type CachedVocabulary } from "./vocabulary-cache.js";

export type CompiledGrammar = Awaited<ReturnType<TokenizerTable["compiler"]["compileGrammar"]>>;

/** What one tokenizer keeps for the worker's life: its vocabulary, xgrammar's table, compiled call grammars by tools. */
export interface TokenizerState {
  vocabulary: Vocabulary;
  table?: Promise<TokenizerTable>;
  grammars: Map<string, Promise<CompiledGrammar>>;
}

const states = new WeakMap<object, TokenizerState>();

/** The tokenizer as the constraint reads it (transformers.js 4.3 keeps its `tokenizer.json` as `_tokenizerJSON`). */
export interface TokenizerLike {
  _tokenizerJSON?: TokenizerJson;
  eos_token_id?: number | null;
}

function tokenizerJson(tokenizer: TokenizerLike): TokenizerJson {
  if (!tokenizer._tokenizerJSON?.model?.vocab) throw new TypeError("The tool-call constraint needs the tokenizer's tokenizer.json (a byte-level BPE vocabulary).");
  return tokenizer._tokenizerJSON;
}

/**
 * The tokenizer's state; its vocabulary is built here, synchronously, if
 * {@link prepareTokenizerState} has not finished (a generation that arrives
 * while the cache is read does not wait for it).
 */
export function tokenizerState(tokenizer: TokenizerLike, vocabSize: number, stopIds: number[]): TokenizerState {
  let state = states.get(tokenizer);
  if (!state) {
    state = { vocabulary: readVocabulary(tokenizerJson(tokenizer), { vocabSize, stopIds }), grammars: new Map() };
    states.set(tokenizer, state);
  }
  return state;
}

/**
 * Makes the tokenizer's state right after a load, its vocabulary read from
 * IndexedDB under `modelKey` when the same tokenizer was read before, else
 * built and stored (vocabulary-cache.ts). Resolves with how it was obtained,
 * or undefined when the state already existed.
 */
export async function prepareTokenizerState(tokenizer: TokenizerLike, options: { modelKey: string; vocabSize: number; stopIds: number[] }): Promise<CachedVocabulary | undefined> {
  if (states.has(tokenizer)) return undefined;
  const cached = await cachedVocabulary(tokenizerJson(tokenizer), options);
  // A generation may have built the state while the cache was read: that one is kept (it may hold grammars).
  if (!states.has(tokenizer)) states.set(tokenizer, { vocabulary: cached.vocabulary, grammars: new Map() });
  return cached;
}
