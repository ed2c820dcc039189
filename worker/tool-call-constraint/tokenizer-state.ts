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

const states = new WeakMap<object, TokenizerState>();

/** The tokenizer's state (nothing is built by asking for it); throws a TypeError when it has no byte-level `tokenizer.json`. */
export function tokenizerState(tokenizer: TokenizerLike, vocabSize: number, stopIds: number[]): TokenizerState {
  let state = states.get(tokenizer);
  if (!state) {
    if (!tokenizer._tokenizerJSON?.model?.vocab) throw new TypeError("The tool-call constraint needs the tokenizer's tokenizer.json (a byte-level BPE vocabulary).");
    state = new TokenizerState(tokenizer._tokenizerJSON, vocabSize, stopIds);
    states.set(tokenizer, state);
  }
  return state;
}
