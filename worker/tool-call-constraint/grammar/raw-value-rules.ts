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
 * `</parameter>` (a right-linear rule per state of matching it, as
 * TagDispatch ends the value at its first), with at least `minimum`
 * characters, after an optional newline the parser drops, then
 * `</parameter>`. The planner must read every value xgrammar lets through;
 * its count may be one above the parser's when the value ends in a newline,
 * which bounds/ then holds.
 */
function plannerRawRules(rules: Map<string, string>, minimum: number): string {
  const needed = Math.min(minimum, PLANNED_MINIMUM);
  const name = `r_raw${needed}`;
  if (rules.has(name)) return name;
  const state = (matched: number, left: number) => `r_k${matched}_${left}`;
  const escape = (char: string) => (char === "\\" || char === "]" || char === "^" || char === "-" ? `\\${char}` : char);
  for (let left = needed; left >= 0; left--) {
    for (let matched = 0; matched < CLOSE.length; matched++) {
      const next = Math.max(0, left - 1);
      const expected = CLOSE[matched]!;
      // Any character but the next of the close and `<` (which starts it again) goes back to no match.
      const alternatives = [`[^${escape(expected)}<] ${state(0, next)}`, `"<" ${state(1, next)}`];
      if (matched > 0 && matched + 1 < CLOSE.length) alternatives.push(`${ebnfLiteral(expected)} ${state(matched + 1, next)}`);
      if (left === 0) alternatives.unshift('""');
      rules.set(state(matched, left), alternatives.join(" | "));
    }
  }
  rules.set(name, `"\\n"? ${state(0, needed)} ${ebnfLiteral(CLOSE)}`);
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
