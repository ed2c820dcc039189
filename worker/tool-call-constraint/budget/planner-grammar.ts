import { classHas, parseEbnf, type CharGrammar } from "./parse-ebnf.js";

/** A code point every class is tried with first when a completion needs one of its characters. */
const PREFERRED = [..."a0 A1"].map((char) => char.codePointAt(0)!);

/**
 * What the planner precomputes once per grammar: each nonterminal's shortest
 * derivation (Knuth's shortest-derivation fixpoint) and the shortest text
 * that finishes every production from every position in it.
 */
export class PlannerGrammar {
  readonly grammar: CharGrammar;
  /** Shortest text length each nonterminal derives (Infinity: none). */
  readonly minLength: number[];
  /** The production that gives it. */
  readonly #best: number[];
  /** Per production, per dot: the shortest length of the rest of its right-hand side. */
  readonly suffix: number[][];
  readonly nullable: boolean[];
  /** First LR(0) item number of each production (its dot positions follow). */
  readonly itemBase: number[];
  readonly itemCount: number;
  /**
   * The most one choice can add to the shortest completion, in characters:
   * over every nonterminal with alternatives, its longest finite shortest
   * alternative less its shortest (an optional part, one more item, another
   * tool). A token that makes such a choice raises the completion by about
   * this much at once, so budget/ starts narrowing that much earlier.
   */
  readonly widestChoice: number;
  readonly #witness = new Map<number, string>();
  readonly #representative = new Map<number, string>();

  constructor(grammar: CharGrammar) {
    this.grammar = grammar;
    const { lhs, rhs } = grammar;
    this.minLength = grammar.names.map(() => Infinity);
    this.#best = grammar.names.map(() => -1);
    const symbolLength = (symbol: number) => (symbol < 0 ? 1 : this.minLength[symbol]!);
    for (let changed = true; changed; ) {
      changed = false;
      for (let production = 0; production < lhs.length; production++) {
        let length = 0;
        for (const symbol of rhs[production]!) length += symbolLength(symbol);
        if (length < this.minLength[lhs[production]!]!) {
          this.minLength[lhs[production]!] = length;
          this.#best[lhs[production]!] = production;
          changed = true;
        }
      }
    }
    this.nullable = this.minLength.map((length) => length === 0);
    this.suffix = rhs.map((symbols) => {
      const lengths = new Array<number>(symbols.length + 1).fill(0);
      for (let dot = symbols.length - 1; dot >= 0; dot--) lengths[dot] = lengths[dot + 1]! + symbolLength(symbols[dot]!);
      return lengths;
    });
    this.itemBase = [];
    let count = 0;
    for (const symbols of rhs) {
      this.itemBase.push(count);
      count += symbols.length + 1;
    }
    this.itemCount = count;
    let widest = 0;
    grammar.byLhs.forEach((productions, symbol) => {
      if (productions.length < 2) return;
      for (const production of productions) {
        const length = this.suffix[production]![0]!;
        if (length !== Infinity) widest = Math.max(widest, length - this.minLength[symbol]!);
      }
    });
    this.widestChoice = widest;
  }

  /** Reads an EBNF grammar (xgrammar's dialect) for planning. */
  static fromEbnf(ebnf: string, root = "root"): PlannerGrammar {
    return new PlannerGrammar(parseEbnf(ebnf, root));
  }

  /** The shortest text for the rest of `production` from `dot`. */
  rest(production: number, dot: number): string {
    let text = "";
    const symbols = this.grammar.rhs[production]!;
    for (let index = dot; index < symbols.length; index++) text += this.#shortest(symbols[index]!);
    return text;
  }

  #shortest(symbol: number): string {
    if (symbol < 0) return this.#characterOf(-symbol - 1);
    let text = this.#witness.get(symbol);
    if (text === undefined) {
      const production = this.#best[symbol]!;
      // A nonterminal with no derivation never reaches here: its items cost Infinity and are never chosen.
      text = production < 0 ? "" : this.rest(production, 0);
      this.#witness.set(symbol, text);
    }
    return text;
  }

  #characterOf(classIndex: number): string {
    let char = this.#representative.get(classIndex);
    if (char === undefined) {
      const characterClass = this.grammar.classes[classIndex]!;
      let code = PREFERRED.find((candidate) => classHas(characterClass, candidate));
      if (code === undefined && !characterClass.negated) code = characterClass.ranges[0];
      for (let candidate = 0x20; code === undefined && candidate < 0x30000; candidate++) if (classHas(characterClass, candidate)) code = candidate;
      char = String.fromCodePoint(code ?? 0x20);
      this.#representative.set(classIndex, char);
    }
    return char;
  }
}
