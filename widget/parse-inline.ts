import type { MarkdownInline } from "./parse-markdown.js";
import { BACKTICK, CLOSE_BRACKET, CLOSE_PAREN, conditions, isSpace, isTrailingPunctuation, isWord, LOWER_H, OPEN_BRACKET, OPEN_PAREN, QUOTE, STAR, UNDERSCORE, type TableName } from "./inline-tables.js";
import { safeHref } from "./safe-href.js";

export { isSpace } from "./inline-tables.js";

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


/** Direct reads go at most this far past a position or a table's answer (`close + 1`, `"http".length`). */
const READ_AHEAD = 16;

export class InlineScanner {
  private readonly text: string;
  private readonly tables = new Map<TableName | "lastUrlChar", Int32Array>();
  /** The furthest index a table answered with (a rule's lookahead). */
  private horizon = 0;
  private unsettled = false;
  /**
   * After a top-level {@link parse}: the last point, just after a span that
   * is not text, before which no decision read near the end of the text.
   * The spans before `spans` cover `text[0, at)`, whatever is appended.
   */
  settled = { at: 0, spans: 0 };

  constructor(text: string) {
    this.text = text;
  }

  /** Spans of `text[start, end)`, read as its own string (lookarounds see nothing outside it); `top` tracks {@link settled}. */
  parse(start: number, end: number, links: boolean, top = false): MarkdownInline[] {
    const spans: MarkdownInline[] = [];
    // Where the regex rules' `rest` began: their lookbehinds and `\b` saw nothing before it.
    let restStart = start;
    let position = start;
    while (position < end) {
      const match = this.matchAt(position, restStart, end, links);
      if (top && Math.max(this.horizon, position) + READ_AHEAD >= this.text.length) this.unsettled = true;
      if (!match) {
        position++;
        continue;
      }
      if (position > restStart) pushText(spans, this.text.slice(restStart, position));
      if (match.span.type === "text") pushText(spans, match.span.text);
      else spans.push(match.span);
      position = restStart = match.end;
      // After a text span the next text would join it: only a span of another kind ends a settled stretch.
      if (top && !this.unsettled && match.span.type !== "text") this.settled = { at: position, spans: spans.length };
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
    if (close + 2 > end || this.next("newline", open + 2, close) < close) return undefined;
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
    if (this.next("newline", open + 2, close) < close) return undefined;
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

  /**
   * The first index at or after `from` where the table's condition holds;
   * `text.length` when none. `limit`: the caller asks only whether it comes
   * before that index, so its answer looked no further (for `settled`).
   */
  private next(name: TableName, from: number, limit = Infinity): number {
    const length = this.text.length;
    if (from >= length) return (this.horizon = Math.max(this.horizon, Math.min(length, limit)));
    let table = this.tables.get(name);
    if (!table) {
      table = this.buildNext(name);
      this.tables.set(name, table);
    }
    const found = table[from]!;
    this.horizon = Math.max(this.horizon, Math.min(found, limit));
    return found;
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

function pushText(spans: MarkdownInline[], text: string): void {
  const last = spans.at(-1);
  if (last?.type === "text") last.text += text;
  else spans.push({ type: "text", text });
}
