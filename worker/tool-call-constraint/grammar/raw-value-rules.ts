import type { GrammarFlavor } from "./json-value-rules.js";
import { ebnfLiteral } from "./rename-ebnf-rules.js";

const CLOSE = "</parameter>";

/**
 * Any text up to and including the first `</parameter>` (xgrammar's
 * TagDispatch: one rule however long the value, so nothing is unrolled).
 * The text may hold `<` and anything else; bounds/ keeps out what else would
 * end the value for the parser (a known `<parameter=KEY>` at a line start)
 * and counts its characters for `minLength` / `maxLength`.
 */
const TAG_DISPATCH = `TagDispatch(stop_eos=false, stop_str=(${ebnfLiteral(CLOSE)}), loop_after_dispatch=false)`;

/** Minimum lengths past this are planned as this (a longer one is still counted by bounds/, which refuses an early close). */
const PLANNED_MINIMUM = 256;

/**
 * The planner's reading of the same value: text that never holds
 * `</parameter>` (as TagDispatch ends the value at its first), with at least
 * `minimum` characters, after an optional newline the parser drops, then
 * `</parameter>`. Written left-linear, one rule per state of matching the
 * close and count of characters (each rule the text that ends in that
 * state): an Earley parser reads it in constant work a character, where a
 * right-linear one costs the text's length. Its count may be one above the
 * parser's when the value ends in a newline, which bounds/ then holds.
 */
function plannerRawRules(rules: Map<string, string>, minimum: number): string {
  const needed = Math.min(minimum, PLANNED_MINIMUM);
  const name = `r_raw${needed}`;
  if (rules.has(name)) return name;
  // Named by the minimum too: two minimums' automata share no rule.
  const state = (matched: number, count: number) => `r_k${needed}_${matched}_${count}`;
  const escape = (char: string) => (char === "\\" || char === "]" || char === "^" || char === "-" ? `\\${char}` : char);
  // Incoming transitions of each state (matched, count), as EBNF alternatives `previous-state character`.
  const incoming = new Map<string, string[]>();
  const edge = (to: string, from: string, character: string) => {
    if (!incoming.has(to)) incoming.set(to, []);
    incoming.get(to)!.push(`${from} ${character}`);
  };
  // From the empty text on, breadth first: only states some text reaches.
  const seen = new Set([state(0, 0)]);
  const queue: [number, number][] = [[0, 0]];
  while (queue.length) {
    const [matched, count] = queue.shift()!;
    const from = state(matched, count);
    const next = Math.min(count + 1, needed);
    const expected = CLOSE[matched]!;
    const go = (to: number, character: string) => {
      edge(state(to, next), from, character);
      if (!seen.has(state(to, next))) {
        seen.add(state(to, next));
        queue.push([to, next]);
      }
    };
    // Any character but the next of the close and `<` (which starts it again) goes back to no match.
    go(0, `[^${escape(expected)}<]`);
    go(1, '"<"');
    if (matched > 0 && matched + 1 < CLOSE.length) go(matched + 1, ebnfLiteral(expected));
  }
  for (let count = 0; count <= needed; count++) {
    for (let matched = 0; matched < CLOSE.length; matched++) {
      const alternatives = incoming.get(state(matched, count)) ?? [];
      if (matched === 0 && count === 0) alternatives.unshift('""');
      if (alternatives.length) rules.set(state(matched, count), alternatives.join(" | "));
    }
  }
  const ends = Array.from({ length: CLOSE.length }, (_, matched) => state(matched, needed)).filter((rule) => rules.has(rule));
  rules.set(name, `"\\n"? (${ends.join(" | ")}) ${ebnfLiteral(CLOSE)}`);
  return name;
}

/** A Qwen3.5 text value of at least `minimum` characters, then `</parameter>`. */
export function rawTextRule(rules: Map<string, string>, flavor: GrammarFlavor, minimum: number): string {
  if (flavor === "planner") return plannerRawRules(rules, minimum);
  if (!rules.has("r_text")) rules.set("r_text", TAG_DISPATCH);
  return "r_text";
}

/**
 * A string enum's members as raw text (unquoted, as the parser reads them),
 * with or without the newline on each side that the parser drops, then
 * `</parameter>`. A member that itself starts (ends) with a newline keeps
 * its newline on that side, or the parser would drop the member's own.
 */
export function rawEnumRule(members: readonly string[]): string {
  // A member holding `</parameter>` cannot be written raw (the parser would end the value there).
  const alternatives = members.filter((member) => !member.includes(CLOSE)).map((member) => {
    const before = member.startsWith("\n") ? '"\\n"' : '"\\n"?';
    const after = member.endsWith("\n") ? '"\\n"' : '"\\n"?';
    return `${before} ${ebnfLiteral(member)} ${after}`;
  });
  return `(${alternatives.join(" | ")}) ${ebnfLiteral(CLOSE)}`;
}
