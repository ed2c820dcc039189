import type { ToolCallGrammar } from "../../models/model-format.js";

/** Values that end as soon as they start (a number's one digit, an empty list or object, a literal). */
const SHORT_VALUES = new Set(["0", "1", "[]", "{}", "true", "false", "null"]);

const cache = new WeakMap<readonly string[], Map<string, Uint16Array>>();

/** Texts that close a call's open structures, longest first: a closing token writes a prefix of one of them. */
function closersOf(grammar: Pick<ToolCallGrammar, "syntax" | "callClose">): string[] {
  const close = grammar.callClose;
  return grammar.syntax === "qwen-xml"
    ? [`\n</parameter>\n</function>\n${close}`, `</parameter>\n</function>\n${close}`, `</function>\n${close}`, "\n</parameter>\n", "</parameter>\n", `\n${close}`, close]
    : [`\n${close}`, close];
}

/**
 * For each token, how strongly it closes: a prefix of the format's closing
 * tags ranks above any JSON closer (`"`, `}`, `]` in any run; in a raw-text
 * value those are just text), a closer starting with `"` above the others,
 * then `, ` (on to a required key), then the shortest values (`0`, `[]`, `{}`, `true`, …) where one must
 * start, longer above shorter within each; 0 for the rest. Near the
 * token budget the constraint keeps, among the tokens the grammar allows,
 * only the best-ranked closing ones: a heuristic towards the shortest valid
 * end of the call, not a proof of it (xgrammar does not give the shortest
 * completion). Computed once per vocabulary and format.
 */
export function closingRanks(texts: readonly string[], grammar: Pick<ToolCallGrammar, "syntax" | "callClose">): Uint16Array {
  const key = `${grammar.syntax}\u0000${grammar.callClose}`;
  let byGrammar = cache.get(texts);
  if (!byGrammar) cache.set(texts, (byGrammar = new Map()));
  let ranks = byGrammar.get(key);
  if (!ranks) {
    const closers = closersOf(grammar);
    ranks = new Uint16Array(texts.length);
    texts.forEach((text, id) => {
      if (!text || text.length > 60) return;
      if (closers.some((closer) => closer.startsWith(text))) ranks![id] = 3000 + text.length;
      // `"` first: inside a string it is the only way out (`}` and `]` are text there).
      else if (/^["}\]]+$/.test(text)) ranks![id] = (text.startsWith('"') ? 2000 : 1000) + text.length;
      // After a value in an object that still needs a key: move on (in a list `]` outranks it).
      else if (text === ", " || text === ",") ranks![id] = 500 + text.length;
      // Where a value must start: the shortest ones.
      else if (SHORT_VALUES.has(text)) ranks![id] = 10 + text.length;
    });
    byGrammar.set(key, ranks);
  }
  return ranks;
}
