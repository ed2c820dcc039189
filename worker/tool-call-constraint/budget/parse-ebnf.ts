/**
 * A character class: code points in `ranges` (flat `[low, high, low, high, …]`),
 * or, `negated`, every code point outside them. A literal character is a class of one.
 */
export interface CharClass {
  negated: boolean;
  ranges: number[];
}

/**
 * An EBNF grammar as plain BNF over characters: what the completion planner
 * parses with. Symbols in a right-hand side are nonterminal indexes (>= 0) or
 * terminals, written `~classIndex` (that is `-classIndex - 1`).
 */
export interface CharGrammar {
  /** Each production's left-hand nonterminal. */
  lhs: number[];
  /** Each production's right-hand side. */
  rhs: number[][];
  /** Production indexes by nonterminal. */
  byLhs: number[][];
  classes: CharClass[];
  /** Nonterminal names (the rule's, or `rule#n` for a group or a repetition inside it). */
  names: string[];
  start: number;
}

/** Whether code point `char` is in `characterClass`. */
export function classHas(characterClass: CharClass, char: number): boolean {
  const { ranges } = characterClass;
  let inside = false;
  for (let index = 0; index < ranges.length; index += 2) {
    if (char >= ranges[index]! && char <= ranges[index + 1]!) {
      inside = true;
      break;
    }
  }
  return inside !== characterClass.negated;
}

type Expression =
  | { kind: "class"; value: CharClass }
  | { kind: "literal"; value: number[] }
  | { kind: "rule"; name: string }
  | { kind: "choice"; alternatives: Expression[][] }
  | { kind: "repeat"; item: Expression; min: number; max: number };

const SIMPLE_ESCAPES: Record<string, number> = { n: 10, r: 13, t: 9, "0": 0, b: 8, f: 12, v: 11 };

class Scanner {
  index = 0;
  constructor(readonly text: string, readonly rule: string) {}

  fail(what: string): never {
    throw new SyntaxError(`EBNF rule "${this.rule}": ${what} at column ${this.index + 1}.`);
  }

  skipSpace() {
    while (this.index < this.text.length && /\s/.test(this.text[this.index]!)) this.index++;
  }

  peek(): string | undefined {
    return this.text[this.index];
  }

  /** One character of a literal or class, an escape resolved; returns its code point. */
  char(): number {
    const head = this.text.codePointAt(this.index);
    if (head === undefined) this.fail("unexpected end");
    if (head !== 0x5c) {
      this.index += head > 0xffff ? 2 : 1;
      return head;
    }
    const kind = this.text[this.index + 1];
    if (kind === undefined) this.fail("a lone backslash");
    const hex = (digits: number) => {
      const value = this.text.slice(this.index + 2, this.index + 2 + digits);
      if (!/^[0-9a-fA-F]+$/.test(value) || value.length !== digits) this.fail(`a bad \\${kind} escape`);
      this.index += 2 + digits;
      return parseInt(value, 16);
    };
    if (kind === "u") return hex(4);
    if (kind === "U") return hex(8);
    if (kind === "x") return hex(2);
    this.index += 2;
    return SIMPLE_ESCAPES[kind] ?? kind.codePointAt(0)!;
  }
}

function parseClass(scanner: Scanner): CharClass {
  scanner.index++; // [
  const negated = scanner.peek() === "^";
  if (negated) scanner.index++;
  const ranges: number[] = [];
  while (scanner.peek() !== "]") {
    if (scanner.peek() === undefined) scanner.fail("an unclosed character class");
    const low = scanner.char();
    let high = low;
    if (scanner.peek() === "-" && scanner.text[scanner.index + 1] !== "]") {
      scanner.index++;
      high = scanner.char();
    }
    ranges.push(low, high);
  }
  scanner.index++; // ]
  return { negated, ranges };
}

function parseLiteral(scanner: Scanner): number[] {
  scanner.index++; // "
  const chars: number[] = [];
  while (scanner.peek() !== '"') {
    if (scanner.peek() === undefined) scanner.fail("an unclosed string");
    chars.push(scanner.char());
  }
  scanner.index++; // "
  return chars;
}

function parseQuantifier(scanner: Scanner, item: Expression): Expression {
  const next = scanner.peek();
  if (next === "*" || next === "+" || next === "?") {
    scanner.index++;
    return { kind: "repeat", item, min: next === "+" ? 1 : 0, max: next === "?" ? 1 : Infinity };
  }
  if (next === "{") {
    const match = /^\{\s*(\d+)\s*(,\s*(\d*)\s*)?\}/.exec(scanner.text.slice(scanner.index));
    if (!match) scanner.fail("a bad repetition");
    scanner.index += match[0].length;
    const min = Number(match[1]);
    const max = match[2] === undefined ? min : match[3] ? Number(match[3]) : Infinity;
    if (max < min) scanner.fail("a repetition whose maximum is below its minimum");
    return { kind: "repeat", item, min, max };
  }
  return item;
}

/** `a b | c (d)*`: alternatives of sequences; a lookahead `(= …)` is read and dropped. */
function parseChoice(scanner: Scanner): Expression[][] {
  const alternatives: Expression[][] = [[]];
  for (;;) {
    scanner.skipSpace();
    const next = scanner.peek();
    if (next === undefined || next === ")") return alternatives;
    if (next === "|") {
      scanner.index++;
      alternatives.push([]);
      continue;
    }
    let item: Expression;
    if (next === '"') item = { kind: "literal", value: parseLiteral(scanner) };
    else if (next === "[") item = { kind: "class", value: parseClass(scanner) };
    else if (next === "(") {
      scanner.index++;
      const lookahead = scanner.peek() === "=";
      if (lookahead) scanner.index++;
      const inner = parseChoice(scanner);
      if (scanner.peek() !== ")") scanner.fail("an unclosed group");
      scanner.index++;
      // A lookahead only narrows what may follow; the grammar itself already requires a valid follower.
      if (lookahead) continue;
      item = { kind: "choice", alternatives: inner };
    } else {
      const name = /^[A-Za-z_][A-Za-z0-9_.\-]*/.exec(scanner.text.slice(scanner.index))?.[0];
      if (!name) scanner.fail(`an unexpected "${next}"`);
      scanner.index += name.length;
      item = { kind: "rule", name };
    }
    alternatives.at(-1)!.push(parseQuantifier(scanner, item));
  }
}

/**
 * Reads xgrammar's EBNF dialect (one `name ::= expression` rule a line:
 * string literals, character classes, groups, `|`, `*` `+` `?` `{m}` `{m,n}`
 * `{m,}` (an unbounded one left-recursive), lookaheads `(= …)`, which are dropped) into {@link CharGrammar}, the
 * BNF the completion planner parses with. Throws a `SyntaxError` naming the
 * rule for text it cannot read, and for a rule used but never defined.
 */
export function parseEbnf(ebnf: string, root = "root"): CharGrammar {
  const grammar: CharGrammar = { lhs: [], rhs: [], byLhs: [], classes: [], names: [], start: 0 };
  const ids = new Map<string, number>();
  const defined = new Set<string>();
  const nonterminal = (name: string) => {
    let id = ids.get(name);
    if (id === undefined) {
      id = grammar.names.length;
      ids.set(name, id);
      grammar.names.push(name);
      grammar.byLhs.push([]);
    }
    return id;
  };
  const fresh = (owner: string) => nonterminal(`${owner}#${grammar.names.length}`);
  const addProduction = (lhs: number, rhs: number[]) => {
    grammar.byLhs[lhs]!.push(grammar.lhs.length);
    grammar.lhs.push(lhs);
    grammar.rhs.push(rhs);
  };
  const terminal = (characterClass: CharClass) => -grammar.classes.push(characterClass);
  const lower = (owner: string, sequence: Expression[]): number[] => sequence.flatMap((item) => symbols(owner, item));
  const symbols = (owner: string, item: Expression): number[] => {
    switch (item.kind) {
      case "literal":
        return item.value.map((char) => terminal({ negated: false, ranges: [char, char] }));
      case "class":
        return [terminal(item.value)];
      case "rule":
        return [nonterminal(item.name)];
      case "choice": {
        if (item.alternatives.length === 1) return lower(owner, item.alternatives[0]!);
        const group = fresh(owner);
        for (const alternative of item.alternatives) addProduction(group, lower(owner, alternative));
        return [group];
      }
      case "repeat": {
        const once = symbols(owner, item.item);
        const required = Array.from({ length: item.min }, () => once).flat();
        if (item.max === item.min) return required;
        // The unbounded part left-recursive, `more ::= "" | more X`: an Earley parser completes a right-recursive
        // one along its whole length at every character (quadratic in a long string), a left-recursive one at once.
        // A bounded part is a chain of `"" | X next`.
        if (item.max === Infinity) {
          const more = fresh(owner);
          addProduction(more, []);
          addProduction(more, [more, ...once]);
          return [...required, more];
        }
        let tail: number | undefined;
        for (let count = 0; count < item.max - item.min; count++) {
          const optional = fresh(owner);
          addProduction(optional, []);
          addProduction(optional, tail === undefined ? once : [...once, tail]);
          tail = optional;
        }
        return [...required, tail!];
      }
    }
  };
  for (const line of ebnf.split("\n")) {
    const match = /^\s*([A-Za-z_][A-Za-z0-9_.\-]*)\s*::=/.exec(line);
    if (!match) {
      if (line.trim()) throw new SyntaxError(`EBNF: a line that is not a rule: ${JSON.stringify(line.slice(0, 60))}.`);
      continue;
    }
    const name = match[1]!;
    const scanner = new Scanner(line.slice(match[0].length), name);
    const alternatives = parseChoice(scanner);
    if (scanner.index < scanner.text.length) scanner.fail("an unmatched \")\"");
    const id = nonterminal(name);
    defined.add(name);
    for (const alternative of alternatives) addProduction(id, lower(name, alternative));
  }
  const missing = grammar.names.find((name) => !name.includes("#") && !defined.has(name));
  if (missing) throw new SyntaxError(`EBNF: rule "${missing}" is used but never defined.`);
  if (!ids.has(root)) throw new SyntaxError(`EBNF: no root rule "${root}".`);
  grammar.start = ids.get(root)!;
  return grammar;
}
