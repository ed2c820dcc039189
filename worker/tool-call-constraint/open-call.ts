import type { ToolCallGrammar } from "../../models/model-format.js";
import { refusedByBounds } from "./bounds/bounds-restriction.js";
import { callWalker, type CallWalker } from "./bounds/call-walker.js";
import { WHITESPACE_LIMIT } from "./bounds/json-walker.js";
import { BudgetClosing } from "./budget/budget-closing.js";
import type { PlannerGrammar } from "./budget/planner-grammar.js";
import type { TokenSpeller } from "./budget/token-speller.js";
import { applyMask } from "./apply-mask.js";
import { notify } from "./constraint-observer.js";
import type { TokenBytes } from "./vocabulary/token-bytes.js";
import { TokenShapes } from "./vocabulary/token-shapes.js";
import type { Vocabulary } from "./vocabulary/tokenizer-vocabulary.js";
import type { Utf8Shapes, Utf8State } from "./vocabulary/utf8-shapes.js";

/** The part of xgrammar's GrammarMatcher the constraint drives. */
export interface CallMatcher {
  acceptToken(id: number): boolean;
  getNextTokenBitmask(): Promise<Int32Array>;
  isTerminated(): boolean;
  findJumpForwardString(): string;
  dispose(): void;
}

/** The vocabulary's tables a call reads its tokens with. */
export interface CallTables {
  vocabulary: Vocabulary;
  bytes: TokenBytes;
  utf8: Utf8Shapes;
  speller: TokenSpeller;
}

/**
 * One open call and its readers: xgrammar's matcher (the grammar), the
 * walker (the bounds the grammar leaves out: bounds/), the UTF-8 state, and
 * budget-aware closing (budget/). Every token of the call, sampled or written
 * ahead, goes into all of them ({@link take}); {@link mask} is what the next
 * token may be.
 */
export class OpenCall {
  readonly #matcher: CallMatcher;
  readonly #tables: CallTables;
  readonly #countRepairs: boolean;
  #walker?: CallWalker;
  #budget?: BudgetClosing;
  #utf8: Utf8State = 0;
  #mask?: Int32Array;
  /** Whether the matcher ended the call (its closer read, or a token it refused). */
  closed = false;
  /** Tokens in the call, and the forward passes they took (written-ahead tokens share their pass). */
  tokens = 0;
  passes = 0;
  /** Whether the mask refused the model's likeliest token at some step: the call came out other than the model would have written it. */
  repaired = false;

  constructor(matcher: CallMatcher, grammar: ToolCallGrammar, tables: CallTables, planner: PlannerGrammar | undefined, countRepairs = false) {
    this.#matcher = matcher;
    this.#countRepairs = countRepairs;
    this.#tables = tables;
    this.#walker = callWalker(grammar);
    if (planner) this.#budget = new BudgetClosing(planner, tables.speller);
  }

  /** One token of the call into every reader; false when the matcher refused it (the call ends, unconstrained from here). */
  take(id: number): boolean {
    this.tokens += 1;
    if (!this.#matcher.acceptToken(id)) {
      notify("rejected", id);
      this.closed = true;
      return false;
    }
    if (this.#matcher.isTerminated()) {
      this.closed = true;
      return true;
    }
    // The bounds refused every token that breaks them: a token that breaks one anyway means the walker lost its place.
    if (this.#walker && !this.#walker.feed(this.#tables.bytes.of(id))) {
      notify("boundsLost");
      this.#walker = undefined;
    }
    this.#utf8 = Math.max(0, this.#tables.utf8.after(id, this.#utf8));
    if (this.#budget) {
      this.#budget.read(id);
      if (this.#budget.lost) {
        notify("plannerLost");
        this.#budget = undefined;
      }
    }
    return true;
  }

  /**
   * The text the grammar fixes from here, as the tokenizer writes it, all
   * but its last token (which may join what follows), within `room` tokens:
   * taken into the call, and returned for the engine to feed ahead.
   */
  jumpForward(encode: (text: string) => number[], room: number): number[] {
    // Mid-character, xgrammar 0.1.27's string is not text (the bytes left of the character decode as lone surrogates): the model finishes it.
    if (this.#utf8 !== 0) return [];
    const forced = wellFormedPrefix(this.#matcher.findJumpForwardString());
    if (!forced) return [];
    const written: number[] = [];
    for (const id of encode(forced).slice(0, -1).slice(0, Math.max(0, room))) {
      // A token the bounds would refuse is not written (the model writes that stretch itself).
      if (this.#walker && !this.#walker.clone().feed(this.#tables.bytes.of(id))) break;
      // Nor one after which the call could no longer close in the tokens left (the next pass's sampled one included).
      if (this.#budget && !this.#budget.fits(id, room - written.length)) break;
      if (!this.take(id)) break;
      written.push(id);
      if (this.closed) break;
    }
    return written;
  }

  /** Computes the next token's mask: xgrammar's, well-formed UTF-8, and the bounds. */
  async prepareMask(): Promise<void> {
    const mask = await this.#matcher.getNextTokenBitmask();
    const utf8 = this.#tables.utf8.mask(this.#utf8);
    for (let word = 0; word < mask.length; word++) mask[word]! &= utf8[word] ?? 0;
    if (this.#walker) {
      const refused = refusedByBounds(this.#walker, mask, TokenShapes.for(this.#tables.vocabulary, WHITESPACE_LIMIT));
      if (refused) {
        let left = 0;
        for (let word = 0; word < mask.length; word++) left |= mask[word]! & ~refused[word]!;
        if (left) for (let word = 0; word < mask.length; word++) mask[word]! &= ~refused[word]!;
        else notify("boundsYielded");
      }
    }
    this.#mask = mask;
  }

  /** Masks `logits` for the step {@link prepareMask} readied; near the budget, only tokens after which the call still fits. */
  apply(logits: Float32Array, left: number): void {
    // Counting repairs: until the call is known repaired, its likeliest token is looked for first (one pass over the logits).
    const likeliest = this.#countRepairs && !this.repaired ? argmax(logits) : -1;
    applyMask(logits, this.#mask!);
    this.#budget?.apply(logits, left);
    if (likeliest >= 0 && logits[likeliest] === -Infinity) this.repaired = true;
  }

  /** The shortest completion's cost in tokens, for `auto`'s opening horizon (-1: unknown). */
  static shortestCall(planner: PlannerGrammar, speller: TokenSpeller): number {
    return new BudgetClosing(planner, speller).cost();
  }

  /** Lets the matcher go; `closed`: the call reached its closer (only then is it reported). */
  dispose(closed = true): void {
    this.#matcher.dispose();
    if (closed) notify("callClosed", { forwardPasses: this.passes, tokens: this.tokens, narrowedSteps: this.#budget?.narrowed ?? 0, planned: this.#budget?.planned ?? false });
  }
}

/** `text` up to its first lone surrogate or U+FFFD: a fixed stretch that ends inside a character is cut before it. */
function wellFormedPrefix(text: string): string {
  for (let index = 0; index < text.length; index++) {
    const unit = text.charCodeAt(index);
    if (unit === 0xfffd) return text.slice(0, index);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = text.charCodeAt(index + 1);
      if (!(next >= 0xdc00 && next <= 0xdfff)) return text.slice(0, index);
      index += 1;
    } else if (unit >= 0xdc00 && unit <= 0xdfff) return text.slice(0, index);
  }
  return text;
}

/** The index of the largest value (the first of equals). */
function argmax(values: Float32Array): number {
  let best = 0;
  let max = -Infinity;
  for (let index = 0; index < values.length; index++) {
    const value = values[index]!;
    if (value > max) {
      max = value;
      best = index;
    }
  }
  return best;
}
