import { readVocabulary, type TokenizerJson, type TokenizerTable, type Vocabulary } from "./tokenizer-table.js";

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

/** The tokenizer's state, its vocabulary read on first use (the engine asks right after a load, off any first token). */
export function tokenizerState(tokenizer: TokenizerLike, vocabSize: number, stopIds: number[]): TokenizerState {
  let state = states.get(tokenizer);
  if (!state) {
    if (!tokenizer._tokenizerJSON?.model?.vocab) throw new TypeError("The tool-call constraint needs the tokenizer's tokenizer.json (a byte-level BPE vocabulary).");
    state = { vocabulary: readVocabulary(tokenizer._tokenizerJSON, { vocabSize, stopIds }), grammars: new Map() };
    states.set(tokenizer, state);
  }
  return state;
}
