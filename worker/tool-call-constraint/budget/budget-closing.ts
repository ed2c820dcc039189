import { CompletionPlanner } from "./completion-planner.js";
import type { PlannerGrammar } from "./planner-grammar.js";
import type { TokenSpeller } from "./token-speller.js";

/**
 * Inside a call, when the shortest completion leaves fewer spare tokens than
 * this (plus the grammar's widest choice: one token may add that much at
 * once), each step keeps only tokens after which the call still fits.
 */
const CLOSING_BAND = 24;
/** How many of the likeliest allowed tokens are tried in the band (the rest are masked there). */
const CLOSING_CANDIDATES = 8;

/**
 * Budget-aware closing for one call: a {@link CompletionPlanner} over the
 * call's grammar knows the shortest text that completes it, and so how many
 * tokens that takes (greedily spelt). When the tokens left come within
 * {@link CLOSING_BAND} of it (more for a grammar with wide choices), each step keeps only the likeliest allowed
 * tokens after which the call still fits; when none does, the shortest
 * completion is written token by token, which fits by construction. Far from
 * the limit it only reads the call (its length check is cheap), so it costs
 * nothing there.
 */
export class BudgetClosing {
  readonly #planner: CompletionPlanner;
  readonly #speller: TokenSpeller;
  /** Spare tokens below which steps are narrowed. */
  readonly #band: number;
  /** The shortest completion's tokens, once it is written from the plan. */
  #plan: number[] = [];
  /** Whether the call's end was written from the plan. */
  planned = false;
  /** Steps the budget narrowed. */
  narrowed = 0;
  /** Whether the planner and xgrammar disagreed (it then steps aside: the call is masked only). */
  lost = false;
  /** The shortest completion's length in characters when a character was last whole (mid-character there is none). */
  #settledCharacters = 0;

  constructor(grammar: PlannerGrammar, speller: TokenSpeller) {
    this.#planner = new CompletionPlanner(grammar);
    this.#speller = speller;
    this.#band = CLOSING_BAND + grammar.widestChoice;
  }

  /** Tokens the shortest completion takes now; -1 when it cannot say (half a character read, or lost). */
  cost(): number {
    return this.#costOf(this.#planner);
  }

  #costOf(planner: CompletionPlanner): number {
    const completion = planner.completion();
    return completion === undefined ? -1 : (this.#speller.spell(completion)?.length ?? -1);
  }

  /** A token of the call (sampled or written ahead). */
  read(id: number): void {
    if (this.lost) return;
    if (this.#plan.length) this.#plan = this.#plan[0] === id ? this.#plan.slice(1) : [];
    if (!this.#planner.feedBytes(this.#speller.bytesOf(id))) this.lost = true;
  }

  /**
   * Whether the call still closes in time if `id` is written ahead (not
   * sampled) with `left` tokens left after it: jump-forward writes the
   * tokenizer's spelling, which may take more tokens than the plan's.
   */
  fits(id: number, left: number): boolean {
    if (this.lost) return true;
    const fork = this.#planner.fork();
    if (!fork.feedBytes(this.#speller.bytesOf(id))) return true; // The planner is wrong: read() steps it aside.
    const characters = fork.completionLength();
    if (characters >= 0 && characters <= left) return true;
    const after = this.#costOf(fork);
    return after >= 0 && after <= left;
  }

  /** Narrows `logits` (already masked by the grammar) for a step with `left` tokens left, the one to be sampled included. */
  apply(logits: Float32Array, left: number): void {
    if (this.lost) return;
    if (this.#plan.length) return this.#force(logits, this.#plan[0]!);
    // The completion in characters bounds its tokens: far from the limit, nothing is spelt.
    // Mid-character there is no completion yet: the last whole one, plus the character's rest (a token a byte), stands in.
    let characters = this.#planner.completionLength();
    if (characters >= 0) this.#settledCharacters = characters;
    else characters = this.#settledCharacters + 3;
    if (left - 1 - characters >= this.#band) return;
    const cost = this.cost();
    if (cost >= 0 && left - 1 - cost >= this.#band) return;
    // In the band: of the likeliest allowed tokens, those after which the shortest completion still fits.
    this.narrowed += 1;
    const fitting = likeliest(logits, CLOSING_CANDIDATES).filter((id) => {
      const fork = this.#planner.fork();
      if (!fork.feedBytes(this.#speller.bytesOf(id))) return false;
      // Its characters bound its tokens (as above): spelt only when they do not fit.
      const characters = fork.completionLength();
      if (characters >= 0 && characters <= left - 1) return true;
      const after = this.#costOf(fork);
      return after >= 0 && after <= left - 1;
    });
    if (fitting.length) {
      const kept = fitting.map((id) => logits[id]!);
      logits.fill(-Infinity);
      fitting.forEach((id, index) => (logits[id] = kept[index]!));
      return;
    }
    // None fits: write the shortest completion, which fits the tokens left by construction
    // (mid-character there is none: the mask's next token finishes the character, unnarrowed).
    this.#plan = this.#speller.spell(this.#planner.completion() ?? "") ?? [];
    this.planned ||= this.#plan.length > 0;
    if (this.#plan.length) this.#force(logits, this.#plan[0]!);
  }

  /** Only `id` may come (unless the mask refuses it: then the planner is wrong, and steps aside). */
  #force(logits: Float32Array, id: number): void {
    if (logits[id] === -Infinity) {
      this.lost = true;
      this.#plan = [];
      return;
    }
    const kept = logits[id]!;
    logits.fill(-Infinity);
    logits[id] = kept;
  }
}

/** The ids of the `count` highest finite logits. */
function likeliest(logits: Float32Array, count: number): number[] {
  const ids: number[] = [];
  // The lowest kept value: most of a vocabulary is below it, one comparison each.
  let floor = -Infinity;
  for (let id = 0; id < logits.length; id++) {
    const value = logits[id]!;
    if (value <= floor) continue;
    let at = ids.length < count ? ids.length : count - 1;
    ids[at] = id;
    while (at > 0 && logits[ids[at - 1]!]! < value) {
      ids[at] = ids[at - 1]!;
      ids[--at] = id;
    }
    if (ids.length === count) floor = logits[ids[count - 1]!]!;
  }
  return ids;
}
