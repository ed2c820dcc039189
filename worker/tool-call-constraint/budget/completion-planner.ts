import { utf8Step, type Utf8State } from "../vocabulary/utf8-shapes.js";
import { classHas } from "./parse-ebnf.js";
import type { PlannerGrammar } from "./planner-grammar.js";

/** One Earley set: items (production, dot, origin) in parallel arrays, indexed for completion and scanning. */
interface EarleySet {
  production: number[];
  dot: number[];
  origin: number[];
  keys: Set<number>;
  /** Items whose next symbol is a nonterminal, by that nonterminal. */
  waiting: Map<number, number[]>;
  /** Items whose next symbol is a character class. */
  scanning: number[];
  /** Memo: the cheapest way to finish what waits on a nonterminal that started here. */
  above: Map<number, { length: number; item: number }>;
}

const emptySet = (): EarleySet => ({ production: [], dot: [], origin: [], keys: new Set(), waiting: new Map(), scanning: [], above: new Map() });

/**
 * The shortest valid completion of a partial text under a grammar: an Earley
 * parser over characters (fed UTF-8 bytes, as tokens arrive) that, at any
 * point, answers the shortest text which makes what it has read a complete
 * sentence of the grammar. The tool-call constraint plans a call's end with
 * it: xgrammar says which tokens may come next, not how short the rest can be.
 *
 * Sets are immutable once built, so {@link fork} is cheap (a candidate token
 * is tried on a fork, which shares the sets read so far).
 */
export class CompletionPlanner {
  readonly #grammar: PlannerGrammar;
  #sets: EarleySet[];
  /** Bytes of a character not yet complete, and where they leave UTF-8. */
  #pending: number[];
  #utf8: Utf8State = 0;
  #dead = false;

  constructor(grammar: PlannerGrammar, sets?: EarleySet[], pending: number[] = []) {
    this.#grammar = grammar;
    this.#pending = pending;
    if (sets) this.#sets = sets;
    else {
      const first = emptySet();
      for (const production of grammar.grammar.byLhs[grammar.grammar.start]!) this.#add(first, production, 0, 0);
      this.#sets = [first];
      this.#close(first, 0);
    }
  }

  /** Whether what was read can no longer be completed (the grammar refused a character). */
  get dead(): boolean {
    return this.#dead;
  }

  /** Characters read so far. */
  get length(): number {
    return this.#sets.length - 1;
  }

  /** A planner that goes on from here on its own (this one is unchanged by what the fork reads). */
  fork(): CompletionPlanner {
    const copy = new CompletionPlanner(this.#grammar, this.#sets.slice(), this.#pending.slice());
    copy.#dead = this.#dead;
    copy.#utf8 = this.#utf8;
    return copy;
  }

  /** Reads UTF-8 bytes (a character may span calls); false once the grammar refuses, or the bytes are not well-formed UTF-8. */
  feedBytes(bytes: Uint8Array): boolean {
    for (const byte of bytes) {
      if (this.#dead) return false;
      const state = utf8Step(this.#pending.length ? this.#utf8 : 0, byte);
      if (state < 0) {
        this.#dead = true;
        return false;
      }
      this.#pending.push(byte);
      this.#utf8 = state;
      if (state > 0) continue;
      const [lead, ...rest] = this.#pending;
      const size = this.#pending.length;
      this.#pending = [];
      this.#scan(size === 1 ? lead! : rest.reduce((value, next) => (value << 6) | (next & 0x3f), lead! & (0xff >> (size + 1))));
    }
    return !this.#dead;
  }

  /** Reads text; false once the grammar refuses. */
  feed(text: string): boolean {
    for (const char of text) {
      if (this.#dead) return false;
      if (this.#pending.length) {
        this.#dead = true;
        return false;
      }
      this.#scan(char.codePointAt(0)!);
    }
    return !this.#dead;
  }

  /**
   * The shortest text that completes what was read into a sentence of the
   * grammar ("" once it is one); undefined when none can (dead) or when a
   * character is half read (its remaining bytes come first).
   */
  completion(): string | undefined {
    if (this.#dead || this.#pending.length) return undefined;
    const position = this.#sets.length - 1;
    const set = this.#sets[position]!;
    const grammar = this.#grammar;
    const [best, bestItem] = this.#best();
    if (bestItem < 0 || best === Infinity) return undefined;
    let text = grammar.rest(set.production[bestItem]!, set.dot[bestItem]!);
    let symbol = grammar.grammar.lhs[set.production[bestItem]!]!;
    let origin = set.origin[bestItem]!;
    while (!(origin === 0 && symbol === grammar.grammar.start)) {
      const from = this.#sets[origin]!;
      const { item } = from.above.get(symbol)!;
      text += grammar.rest(from.production[item]!, from.dot[item]! + 1);
      symbol = grammar.grammar.lhs[from.production[item]!]!;
      origin = from.origin[item]!;
    }
    return text;
  }

  /** How many characters the shortest completion has (Infinity when none; -1 while a character is half read): cheaper than {@link completion}. */
  completionLength(): number {
    if (this.#dead) return Infinity;
    if (this.#pending.length) return -1;
    return this.#best()[0];
  }

  /** The cheapest item of the last set to finish from, and its length. */
  #best(): [number, number] {
    const set = this.#sets[this.#sets.length - 1]!;
    const grammar = this.#grammar;
    let best = Infinity;
    let bestItem = -1;
    for (let item = 0; item < set.production.length; item++) {
      const production = set.production[item]!;
      const length = grammar.suffix[production]![set.dot[item]!]! + this.#above(set.origin[item]!, grammar.grammar.lhs[production]!);
      if (length < best) {
        best = length;
        bestItem = item;
      }
    }
    return [best, bestItem];
  }

  /** The shortest length that finishes everything waiting on `symbol`, which started at `position`. */
  #above(position: number, symbol: number): number {
    const grammar = this.#grammar;
    if (position === 0 && symbol === grammar.grammar.start) return 0;
    const set = this.#sets[position]!;
    const known = set.above.get(symbol);
    if (known) return known.length;
    // A guard against cycles (a left-recursive grammar): a path back to here is no shorter.
    set.above.set(symbol, { length: Infinity, item: -1 });
    let best = { length: Infinity, item: -1 };
    for (const item of set.waiting.get(symbol) ?? []) {
      const production = set.production[item]!;
      const length = grammar.suffix[production]![set.dot[item]! + 1]! + this.#above(set.origin[item]!, grammar.grammar.lhs[production]!);
      if (length < best.length) best = { length, item };
    }
    set.above.set(symbol, best);
    return best.length;
  }

  #add(set: EarleySet, production: number, dot: number, origin: number) {
    const key = this.#grammar.itemBase[production]! + dot + origin * this.#grammar.itemCount;
    if (set.keys.has(key)) return;
    set.keys.add(key);
    set.production.push(production);
    set.dot.push(dot);
    set.origin.push(origin);
  }

  /** Prediction and completion to a fixpoint (nullable nonterminals advanced over as they are predicted). */
  #close(set: EarleySet, position: number) {
    const { grammar, nullable } = this.#grammar;
    for (let item = 0; item < set.production.length; item++) {
      const production = set.production[item]!;
      const dot = set.dot[item]!;
      const symbols = grammar.rhs[production]!;
      if (dot < symbols.length) {
        const symbol = symbols[dot]!;
        if (symbol < 0) {
          set.scanning.push(item);
          continue;
        }
        let waiting = set.waiting.get(symbol);
        if (!waiting) {
          set.waiting.set(symbol, (waiting = []));
          for (const predicted of grammar.byLhs[symbol]!) this.#add(set, predicted, 0, position);
        }
        waiting.push(item);
        if (nullable[symbol]) this.#add(set, production, dot + 1, set.origin[item]!);
        continue;
      }
      const origin = set.origin[item]!;
      const from = origin === position ? set : this.#sets[origin]!;
      const waiting = from.waiting.get(grammar.lhs[production]!);
      if (!waiting) continue;
      for (let index = 0; index < waiting.length; index++) {
        const parent = waiting[index]!;
        this.#add(set, from.production[parent]!, from.dot[parent]! + 1, from.origin[parent]!);
      }
    }
  }

  #scan(code: number) {
    const position = this.#sets.length - 1;
    const set = this.#sets[position]!;
    const { grammar } = this.#grammar;
    const next = emptySet();
    for (const item of set.scanning) {
      const production = set.production[item]!;
      const dot = set.dot[item]!;
      if (classHas(grammar.classes[-grammar.rhs[production]![dot]! - 1]!, code)) this.#add(next, production, dot + 1, set.origin[item]!);
    }
    if (!next.production.length) {
      this.#dead = true;
      return;
    }
    this.#sets.push(next);
    this.#close(next, position + 1);
  }
}
