import { loadXGrammar } from "./load-xgrammar.js";
import { TokenShapes } from "./vocabulary/token-shapes.js";
import { readVocabulary, type TokenizerJson, type Vocabulary } from "./vocabulary/tokenizer-vocabulary.js";
import { XGrammarTokenizer } from "./vocabulary/xgrammar-tokenizer.js";
import { WHITESPACE_LIMIT } from "./bounds/json-walker.js";
import { Utf8Shapes } from "./vocabulary/utf8-shapes.js";
import { notify, observed } from "./constraint-observer.js";

/** The tokenizer as the constraint reads it (transformers.js 4.3 keeps its `tokenizer.json` as `_tokenizerJSON`). */
export interface TokenizerLike {
  _tokenizerJSON?: TokenizerJson;
}

/**
 * What one tokenizer keeps for the worker's life, each part built the first
 * time a constrained generation needs it, in the background: the vocabulary
 * (~25 ms), then xgrammar's table (a few hundred milliseconds, once) and the
 * constraint's token tables. Nothing of it is built for a generation with
 * `constrainToolCalls: false`, nor before a first token.
 */
export class TokenizerState {
  readonly #json: TokenizerJson;
  readonly #vocabSize: number;
  readonly #stopIds: number[];
  #vocabulary?: Vocabulary;
  #xgrammar?: Promise<XGrammarTokenizer>;

  constructor(json: TokenizerJson, vocabSize: number, stopIds: number[]) {
    this.#json = json;
    this.#vocabSize = vocabSize;
    this.#stopIds = stopIds;
  }

  /** Whether this state is what a tokenizer with this content would build: the same vocabulary, added tokens, logits size and stop ids. */
  reads(json: TokenizerJson, vocabSize: number, stopIds: readonly number[]): boolean {
    if (vocabSize !== this.#vocabSize || !sameMembers(stopIds, this.#stopIds)) return false;
    const mine = this.#json;
    if (json === mine) return true;
    if (json.model.type !== mine.model.type) return false;
    const added = (tokens: TokenizerJson["added_tokens"]) => JSON.stringify((tokens ?? []).map(({ id, content, special }) => [id, content, special === true]));
    if (added(json.added_tokens) !== added(mine.added_tokens)) return false;
    // Every entry compared: a near-miss (one token renumbered) must build its own tables.
    let count = 0;
    for (const token in json.model.vocab) {
      if (mine.model.vocab[token] !== json.model.vocab[token]) return false;
      count += 1;
    }
    let mineCount = 0;
    for (const _ in mine.model.vocab) mineCount += 1;
    return count === mineCount;
  }

  /** The vocabulary, read now if it was not. */
  readVocabulary(): Vocabulary {
    if (!this.#vocabulary) {
      const started = observed() ? performance.now() : 0;
      this.#vocabulary = readVocabulary(this.#json, { vocabSize: this.#vocabSize, stopIds: this.#stopIds });
      if (started) notify("built", { part: "vocabulary", ms: performance.now() - started });
    }
    return this.#vocabulary;
  }

  /** The id of an added token with this text (the call opener), from `tokenizer.json` alone. */
  addedTokenId(content: string): number | undefined {
    return this.#json.added_tokens?.find((token) => token.content === content)?.id;
  }

  /** xgrammar's table (and the constraint's token tables, built alongside), started once. */
  xgrammar(): Promise<XGrammarTokenizer> {
    this.#xgrammar ??= (async () => {
      const vocabulary = this.readVocabulary();
      const xgrammar = await loadXGrammar();
      const started = observed() ? performance.now() : 0;
      const table = await XGrammarTokenizer.create(xgrammar, vocabulary);
      TokenShapes.for(vocabulary, WHITESPACE_LIMIT);
      Utf8Shapes.for(vocabulary.encoded).mask(0);
      if (started) notify("built", { part: "xgrammar", ms: performance.now() - started });
      return table;
    })();
    this.#xgrammar.catch(() => (this.#xgrammar = undefined));
    return this.#xgrammar;
  }
}

/** States by tokenizer object: one loaded tokenizer reads its own state back at once. */
const sameMembers = (a: readonly number[], b: readonly number[]) => {
  const set = new Set(a);
  return set.size === new Set(b).size && b.every((id) => set.has(id));
};

const states = new WeakMap<object, TokenizerState>();
/**
 * The last few states by content, newest last: a model loaded again (a new
 * tokenizer object) or another size of the same family (Qwen3 0.6B and
 * 1.7B share one tokenizer) reuses xgrammar's table instead of building it
 * again (about 3 s on this machine for Qwen3's 151,669 tokens). Two, so a
 * person switching back and forth between two families builds nothing.
 */
const recent: TokenizerState[] = [];
const RECENT_KEPT = 2;

/** The tokenizer's state (nothing is built by asking for it); throws a TypeError when it has no byte-level `tokenizer.json`. */
export function tokenizerState(tokenizer: TokenizerLike, vocabSize: number, stopIds: number[]): TokenizerState {
  let state = states.get(tokenizer);
  if (!state) {
    const json = tokenizer._tokenizerJSON;
    if (!json?.model?.vocab) throw new TypeError("The tool-call constraint needs the tokenizer's tokenizer.json (a byte-level BPE vocabulary).");
    state = recent.find((kept) => kept.reads(json, vocabSize, stopIds)) ?? new TokenizerState(json, vocabSize, stopIds);
    states.set(tokenizer, state);
  }
  const at = recent.indexOf(state);
  if (at !== -1) recent.splice(at, 1);
  recent.push(state);
  if (recent.length > RECENT_KEPT) recent.shift();
  return state;
}

/** Forgets the states kept by content, so the next new tokenizer object builds its own (tests of what is built, and when). */
export function forgetTokenizerStates(): void {
  recent.length = 0;
}
