/**
 * Prefixes every rule name in an EBNF text (xgrammar's dialect), so that
 * grammars made separately (one per tool or parameter, each with its own
 * `root`, `basic_string`, …) can be joined into one. Quoted literals
 * (`"…"`, with `\` escapes) and character classes (`[…]`) are copied as they
 * are; every other identifier is a rule name.
 */
export function renameEbnfRules(ebnf: string, prefix: string): string {
  let out = "";
  let index = 0;
  while (index < ebnf.length) {
    const char = ebnf[index]!;
    if (char === '"' || char === "[") {
      const end = literalEnd(ebnf, index, char === '"' ? '"' : "]");
      out += ebnf.slice(index, end);
      index = end;
      continue;
    }
    if (/[A-Za-z_]/.test(char)) {
      let end = index + 1;
      while (end < ebnf.length && /[A-Za-z0-9_]/.test(ebnf[end]!)) end++;
      out += prefix + ebnf.slice(index, end);
      index = end;
      continue;
    }
    out += char;
    index++;
  }
  return out;
}

/** `ebnf` with each character class (`[…]`, text included) replaced by `map(class)`; quoted literals are skipped. */
export function mapCharacterClasses(ebnf: string, map: (characterClass: string) => string): string {
  let out = "";
  let index = 0;
  while (index < ebnf.length) {
    const char = ebnf[index]!;
    if (char === '"' || char === "[") {
      const end = literalEnd(ebnf, index, char === '"' ? '"' : "]");
      out += char === "[" ? map(ebnf.slice(index, end)) : ebnf.slice(index, end);
      index = end;
      continue;
    }
    out += char;
    index++;
  }
  return out;
}

/** The index just past the literal or class that opens at `start` and closes with `close`. */
function literalEnd(text: string, start: number, close: string): number {
  let index = start + 1;
  while (index < text.length) {
    const char = text[index]!;
    if (char === "\\") {
      index += 2;
      continue;
    }
    if (char === close) return index + 1;
    index++;
  }
  throw new SyntaxError(`Unterminated ${close === '"' ? "string literal" : "character class"} in EBNF at ${start}: ${text.slice(start, start + 40)}`);
}

/** `text` as an EBNF string literal, quotes included. */
export function ebnfLiteral(text: string): string {
  let out = '"';
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (char === '"' || char === "\\") out += `\\${char}`;
    else if (char === "\n") out += "\\n";
    else if (char === "\r") out += "\\r";
    else if (char === "\t") out += "\\t";
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, "0")}`;
    else out += char;
  }
  return `${out}"`;
}
