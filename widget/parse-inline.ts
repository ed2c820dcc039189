import type { MarkdownInline } from "./parse-markdown.js";
import { safeHref } from "./safe-href.js";

/**
 * Splits one line into inline spans: code, links (safe ones only), bare
 * http(s) URLs, bold and italic. `links` false inside a link's text (no
 * nested links).
 *
 * One left-to-right scan. At each position the rules are tried in order
 * (code, link, bare URL, `**`, `__`, `*`, `_`); the first that matches there
 * wins, exactly as the earlier regex rules did when each searched the rest of
 * the line (the leftmost match, ties to the earlier rule). Each rule finds its
 * closer through a next-occurrence table built once per line, so a failed
 * opener costs O(1) instead of a rescan of the rest of the line: a 150 KB line
 * of backticks took seconds with the regexes (issue #14).
 */
export function parseInline(text: string, links = true): MarkdownInline[] {
  return new InlineScanner(text).parse(0, text.length, links);
}

interface InlineMatch {
  end: number;
  span: MarkdownInline;
}

// Char codes.
const BACKTICK = 96;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;
const OPEN_PAREN = 40;
const CLOSE_PAREN = 41;
const QUOTE = 34;
const STAR = 42;
const UNDERSCORE = 95;
const NEWLINE = 10;
const LOWER_H = 104;

/** JavaScript's `\s`: WhiteSpace and LineTerminator. */
export function isSpace(code: number): boolean {
  return (
    (code >= 9 && code <= 13) ||
    code === 32 ||
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

/** JavaScript's `\w` (no `u` flag). */
function isWord(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === UNDERSCORE;
}

/** Ends a bare URL: `[\s<>"'\`]`. */
function endsBareUrl(code: number): boolean {
  return isSpace(code) || code === 60 || code === 62 || code === QUOTE || code === 39 || code === BACKTICK;
}

/** What a bare URL may not end on: `.,;:!?)]`. */
function isTrailingPunctuation(code: number): boolean {
  return code === 46 || code === 44 || code === 59 || code === 58 || code === 33 || code === 63 || code === CLOSE_PAREN || code === CLOSE_BRACKET;
}

type TableName =
  | "codeEnd"
  | "linkTextEnd"
  | "targetEnd"
  | "nonSpace"
  | "titleEnd"
  | "bareUrlEnd"
  | "starOrNewline"
  | "underscoreOrNewline"
  | "newline"
  | "strongStarCloser"
  | "strongUnderscoreCloser";

class InlineScanner {
  private readonly text: string;
  private readonly tables = new Map<TableName | "lastUrlChar", Int32Array>();

  constructor(text: string) {
    this.text = text;
  }

  /** Spans of `text[start, end)`, read as its own string (lookarounds see nothing outside it). */
  parse(start: number, end: number, links: boolean): MarkdownInline[] {
    const spans: MarkdownInline[] = [];
    // Where the regex rules' `rest` began: their lookbehinds and `\b` saw nothing before it.
    let restStart = start;
    let position = start;
    while (position < end) {
      const match = this.matchAt(position, restStart, end, links);
      if (!match) {
        position++;
        continue;
      }
      if (position > restStart) pushText(spans, this.text.slice(restStart, position));
      if (match.span.type === "text") pushText(spans, match.span.text);
      else spans.push(match.span);
      position = restStart = match.end;
    }
    if (end > restStart) pushText(spans, this.text.slice(restStart, end));
    return spans;
  }

  private matchAt(position: number, restStart: number, end: number, links: boolean): InlineMatch | undefined {
    switch (this.text.charCodeAt(position)) {
      case BACKTICK:
        return this.code(position, end);
      case OPEN_BRACKET:
        return links ? this.link(position, end) : undefined;
      case LOWER_H:
        return links ? this.bareUrl(position, restStart, end) : undefined;
      case STAR:
        return this.strongStar(position, end, links) ?? this.emphasis(position, restStart, end, links, STAR);
      case UNDERSCORE:
        return this.strongUnderscore(position, restStart, end, links) ?? this.emphasis(position, restStart, end, links, UNDERSCORE);
      default:
        return undefined;
    }
  }

  /** `` `([^`\n]+)` `` */
  private code(open: number, end: number): InlineMatch | undefined {
    const close = this.next("codeEnd", open + 1);
    if (close >= end || close === open + 1 || this.text.charCodeAt(close) !== BACKTICK) return undefined;
    return { end: close + 1, span: { type: "code", text: this.text.slice(open + 1, close) } };
  }

  /** `\[([^\]\n]+)\]\(\s*([^)\s]+)(?:\s+"[^"\n]*")?\s*\)`; an unsafe href stays as text. */
  private link(open: number, end: number): InlineMatch | undefined {
    const text = this.text;
    const labelEnd = this.next("linkTextEnd", open + 1);
    if (labelEnd >= end || labelEnd === open + 1 || text.charCodeAt(labelEnd) !== CLOSE_BRACKET) return undefined;
    if (labelEnd + 1 >= end || text.charCodeAt(labelEnd + 1) !== OPEN_PAREN) return undefined;
    const targetStart = this.next("nonSpace", labelEnd + 2);
    if (targetStart >= end || text.charCodeAt(targetStart) === CLOSE_PAREN) return undefined;
    const targetEnd = Math.min(this.next("targetEnd", targetStart), end);
    let close = this.next("nonSpace", targetEnd);
    if (close > targetEnd && close < end && text.charCodeAt(close) === QUOTE) {
      // A title: `\s+"[^"\n]*"`, then `\s*\)`.
      const titleEnd = this.next("titleEnd", close + 1);
      if (titleEnd < end && text.charCodeAt(titleEnd) === QUOTE) close = this.next("nonSpace", titleEnd + 1);
    }
    if (close >= end || text.charCodeAt(close) !== CLOSE_PAREN) return undefined;
    const href = safeHref(text.slice(targetStart, targetEnd));
    // An unsafe link stays visible, as inert text.
    const span: MarkdownInline = href
      ? { type: "link", href, content: this.parse(open + 1, labelEnd, false) }
      : { type: "text", text: text.slice(open, close + 1) };
    return { end: close + 1, span };
  }

  /** `\bhttps?:\/\/[^\s<>"'\`]*[^\s<>"'\`.,;:!?)\]]` */
  private bareUrl(start: number, restStart: number, end: number): InlineMatch | undefined {
    const text = this.text;
    if (start > restStart && isWord(text.charCodeAt(start - 1))) return undefined;
    if (!text.startsWith("http", start)) return undefined;
    let scheme = start + 4;
    if (text.charCodeAt(scheme) === 115) scheme++; // s
    if (!text.startsWith("://", scheme)) return undefined;
    const runStart = scheme + 3;
    if (runStart >= end) return undefined;
    const runEnd = Math.min(this.next("bareUrlEnd", runStart), end);
    if (runEnd === runStart) return undefined;
    const last = this.previousUrlChar(runEnd - 1);
    if (last < runStart) return undefined;
    const url = text.slice(start, last + 1);
    return { end: last + 1, span: { type: "link", href: url, content: [{ type: "text", text: url }] } };
  }

  /** `\*\*(?=\S)([^\n]*?\S)\*\*` */
  private strongStar(open: number, end: number, links: boolean): InlineMatch | undefined {
    const text = this.text;
    if (open + 2 >= end || text.charCodeAt(open + 1) !== STAR || isSpace(text.charCodeAt(open + 2))) return undefined;
    const close = this.next("strongStarCloser", open + 3);
    if (close + 2 > end || this.next("newline", open + 2) < close) return undefined;
    return { end: close + 2, span: { type: "strong", content: this.parse(open + 2, close, links) } };
  }

  /** `\b__(?=\S)([^\n]*?\S)__\b` */
  private strongUnderscore(open: number, restStart: number, end: number, links: boolean): InlineMatch | undefined {
    const text = this.text;
    if (open > restStart && isWord(text.charCodeAt(open - 1))) return undefined;
    if (open + 2 >= end || text.charCodeAt(open + 1) !== UNDERSCORE || isSpace(text.charCodeAt(open + 2))) return undefined;
    let close = this.next("strongUnderscoreCloser", open + 3);
    if (close + 2 > end) {
      // The table reads `\b` against the whole line; this range ends earlier, which is a boundary too.
      const last = end - 2;
      const closesAtEnd =
        last >= open + 3 &&
        text.charCodeAt(last) === UNDERSCORE &&
        text.charCodeAt(last + 1) === UNDERSCORE &&
        !isSpace(text.charCodeAt(last - 1));
      if (!closesAtEnd) return undefined;
      close = last;
    }
    if (this.next("newline", open + 2) < close) return undefined;
    return { end: close + 2, span: { type: "strong", content: this.parse(open + 2, close, links) } };
  }

  /**
   * `(?<![*\w])\*(?=\S)([^*\n]*?\S)\*(?![*\w])`, or the same with `_`. The
   * content holds no delimiter but its last character, so the closer is the
   * next delimiter or the one after it.
   */
  private emphasis(open: number, restStart: number, end: number, links: boolean, delimiter: typeof STAR | typeof UNDERSCORE): InlineMatch | undefined {
    const text = this.text;
    const flanks = (code: number) => code === delimiter || isWord(code);
    if (open > restStart && flanks(text.charCodeAt(open - 1))) return undefined;
    if (open + 1 >= end || isSpace(text.charCodeAt(open + 1))) return undefined;
    const next = this.next(delimiter === STAR ? "starOrNewline" : "underscoreOrNewline", open + 1);
    if (next >= end || text.charCodeAt(next) !== delimiter) return undefined;
    const closesAt = (close: number) => close + 1 >= end || !flanks(text.charCodeAt(close + 1));
    let close: number | undefined;
    if (next >= open + 2 && !isSpace(text.charCodeAt(next - 1)) && closesAt(next)) close = next;
    else if (next + 1 < end && text.charCodeAt(next + 1) === delimiter && closesAt(next + 1)) close = next + 1;
    if (close === undefined) return undefined;
    return { end: close + 1, span: { type: "em", content: this.parse(open + 1, close, links) } };
  }

  /** The first index at or after `from` where the table's condition holds; `text.length` when none. */
  private next(name: TableName, from: number): number {
    const length = this.text.length;
    if (from >= length) return length;
    let table = this.tables.get(name);
    if (!table) {
      table = this.buildNext(name);
      this.tables.set(name, table);
    }
    return table[from]!;
  }

  private buildNext(name: TableName): Int32Array {
    const text = this.text;
    const length = text.length;
    const holds = conditions[name];
    const table = new Int32Array(length + 1);
    table[length] = length;
    for (let index = length - 1; index >= 0; index--) table[index] = holds(text, index) ? index : table[index + 1]!;
    return table;
  }

  /** The last index at or before `from` that a bare URL may end on; -1 when none. */
  private previousUrlChar(from: number): number {
    let table = this.tables.get("lastUrlChar");
    if (!table) {
      const text = this.text;
      table = new Int32Array(text.length);
      let last = -1;
      for (let index = 0; index < text.length; index++) {
        if (!isTrailingPunctuation(text.charCodeAt(index))) last = index;
        table[index] = last;
      }
      this.tables.set("lastUrlChar", table);
    }
    return table[from]!;
  }
}

const conditions: Record<TableName, (text: string, index: number) => boolean> = {
  codeEnd: (text, index) => {
    const code = text.charCodeAt(index);
    return code === BACKTICK || code === NEWLINE;
  },
  linkTextEnd: (text, index) => {
    const code = text.charCodeAt(index);
    return code === CLOSE_BRACKET || code === NEWLINE;
  },
  targetEnd: (text, index) => {
    const code = text.charCodeAt(index);
    return code === CLOSE_PAREN || isSpace(code);
  },
  nonSpace: (text, index) => !isSpace(text.charCodeAt(index)),
  titleEnd: (text, index) => {
    const code = text.charCodeAt(index);
    return code === QUOTE || code === NEWLINE;
  },
  bareUrlEnd: (text, index) => endsBareUrl(text.charCodeAt(index)),
  starOrNewline: (text, index) => {
    const code = text.charCodeAt(index);
    return code === STAR || code === NEWLINE;
  },
  underscoreOrNewline: (text, index) => {
    const code = text.charCodeAt(index);
    return code === UNDERSCORE || code === NEWLINE;
  },
  newline: (text, index) => text.charCodeAt(index) === NEWLINE,
  strongStarCloser: (text, index) =>
    index >= 1 && text.charCodeAt(index) === STAR && text.charCodeAt(index + 1) === STAR && !isSpace(text.charCodeAt(index - 1)),
  strongUnderscoreCloser: (text, index) =>
    index >= 1 &&
    text.charCodeAt(index) === UNDERSCORE &&
    text.charCodeAt(index + 1) === UNDERSCORE &&
    !isSpace(text.charCodeAt(index - 1)) &&
    (index + 2 >= text.length || !isWord(text.charCodeAt(index + 2))),
};

function pushText(spans: MarkdownInline[], text: string): void {
  const last = spans.at(-1);
  if (last?.type === "text") last.text += text;
  else spans.push({ type: "text", text });
}
