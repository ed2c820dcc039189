import type { GrammarFlavor } from "./json-value-rules.js";
import { ebnfLiteral } from "./rename-ebnf-rules.js";

/** Where a key is written: a JSON object's key (quoted, escapes) or a Qwen3.5 `<parameter=KEY>` (raw, up to `>`). */
export type KeySyntax = "json" | "xml";

/** A character inside an EBNF class (xgrammar's and budget/parse-ebnf.ts's dialect); undefined past the BMP, which `\u` cannot name. */
function classChar(char: string): string | undefined {
  const code = char.codePointAt(0)!;
  if (code > 0xffff) return undefined;
  if (code < 0x20 || code > 0x7e) return `\\u${code.toString(16).padStart(4, "0")}`;
  return "\\]^-\"".includes(char) ? `\\${char}` : char;
}

/**
 * A rule for a key that is none of `listed`: the rest of a JSON string after
 * its opening quote (`json`, the key as JSON.stringify writes it) or a
 * `<parameter=` key up to and including its `>` (`xml`). Built as the
 * complement of the listed keys' trie: at each node, a listed child's
 * character leads on in the trie, any other character leaves it for good,
 * and the key may end there unless the node is a listed key. So a listed
 * key is admitted only as itself (with its own value schema), never as an
 * unlisted one. Where exactness would cost more than it is worth, the rule
 * admits more, never less: a listed key written with other escapes
 * (`"s\u006bu"`), or with a character past the BMP in a place where another
 * key goes on, can be read as unlisted; the page's validation still sees it.
 * `name` names a new rule for a body.
 */
export function unlistedKeyRule(options: { listed: readonly string[]; syntax: KeySyntax; flavor: GrammarFlavor; rules: Map<string, string>; name: (body: string) => string }): string {
  const { listed, syntax, name } = options;
  const forms = [...new Set(listed.map((key) => (syntax === "json" ? JSON.stringify(key).slice(1, -1) : key)))];
  const keys = new Set(forms);
  const close = syntax === "json" ? '"\\""' : '">"';
  // Any character but the specials: for JSON a string's plain characters, for XML anything but `>`.
  const plain = syntax === "json" ? '\\"\\\\\\u0000-\\u001f' : ">";
  // What follows once the key has left the trie: the rest of any key (right-recursive for xgrammar, a quantifier for the planner).
  const rest = syntax === "json" ? "j_str_rest" : "x_key_rest";
  if (syntax === "xml") options.rules.set(rest, options.flavor === "planner" ? '[^>]* ">"' : '">" | [^>] x_key_rest');
  const bodies = new Map<string, string>();
  const build = (prefix: string): string => {
    const children = [...new Set(forms.filter((form) => form.length > prefix.length && form.startsWith(prefix)).map((form) => [...form.slice(prefix.length)][0]!))];
    const alternatives: string[] = [];
    if (!keys.has(prefix)) alternatives.push(close);
    for (const child of children) alternatives.push(`${ebnfLiteral(child)} ${build(prefix + child)}`);
    const excluded = children.map(classChar).filter((char): char is string => char !== undefined).join("");
    const afterEscape = syntax === "json" && prefix.endsWith("\\") && !prefix.endsWith("\\\\");
    if (afterEscape) {
      // Inside an escape: the escape characters no listed key goes on with.
      const letters = [..."\"\\/bfnrt"].filter((char) => !children.includes(char)).map((char) => classChar(char)!).join("");
      if (letters) alternatives.push(`[${letters}] ${rest}`);
      if (!children.includes("u")) alternatives.push(`"u" [0-9a-fA-F] [0-9a-fA-F] [0-9a-fA-F] [0-9a-fA-F] ${rest}`);
    } else {
      alternatives.push(`[^${plain}${excluded}] ${rest}`);
      if (syntax === "json" && !children.includes("\\")) alternatives.push(`"\\\\" j_escape ${rest}`);
    }
    const body = alternatives.join(" | ");
    const known = bodies.get(body);
    if (known) return known;
    const rule = name(body);
    bodies.set(body, rule);
    return rule;
  };
  return build("");
}
