// The markdown parser as it was before issue #14 (commit 549759c), kept as
// the benchmark's "before" and for the differential test beside it. Not
// shipped; do not fix it.
/**
 * The small markdown the chat renders, as plain data: paragraphs, headings,
 * lists, block quotes, fenced code; inline code, bold, italic and links.
 * No HTML: every string here is rendered as text. Pure, so streaming text
 * (an unclosed fence, a half-written link) parses into something sensible.
 */
export type MarkdownBlock =
  | { type: "paragraph"; lines: MarkdownInline[][] }
  | { type: "heading"; content: MarkdownInline[] }
  | { type: "list"; ordered: boolean; start: number; items: MarkdownInline[][][] }
  | { type: "quote"; lines: MarkdownInline[][] }
  | { type: "code"; language: string; text: string };

/** An inline span. `link` holds an href already checked by {@link safeHref}. */
export type MarkdownInline =
  | { type: "text"; text: string }
  | { type: "code"; text: string }
  | { type: "strong"; content: MarkdownInline[] }
  | { type: "em"; content: MarkdownInline[] }
  | { type: "link"; href: string; content: MarkdownInline[] };

const FENCE = /^\s{0,3}(`{3,}|~{3,})\s*([\w+#.-]*)[^\n]*$/;
const BULLET = /^\s{0,3}[-*+]\s+(.*)$/;
const NUMBERED = /^\s{0,3}(\d{1,9})[.)]\s+(.*)$/;
const HEADING = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/;
const QUOTE = /^\s{0,3}>\s?(.*)$/;
const CONTINUATION = /^\s{2,}\S/;
const SAFE_PROTOCOLS = new Set(["http:", "https:", "mailto:"]);

/**
 * `href` when it is safe to put in a link: http, https and mailto URLs, and
 * relative ones (resolved against the page). `undefined` for anything else
 * (`javascript:`, `data:`, `vbscript:`...), however it is spelled: the
 * check uses the URL parser, which sees through case, tabs and newlines.
 */
export function safeHref(href: string): string | undefined {
  const trimmed = href.trim();
  if (trimmed === "") return undefined;
  let parsed: URL;
  try {
    parsed = new URL(trimmed, "https://relative.invalid/");
  } catch {
    return undefined;
  }
  return SAFE_PROTOCOLS.has(parsed.protocol) ? trimmed : undefined;
}

/** Splits `text` into blocks. */
export function parseMarkdown(text: string): MarkdownBlock[] {
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  const blocks: MarkdownBlock[] = [];
  let index = 0;
  while (index < lines.length) {
    const line = lines[index]!;
    if (line.trim() === "") {
      index++;
      continue;
    }
    const fence = FENCE.exec(line);
    if (fence) {
      const marker = fence[1]!;
      const body: string[] = [];
      index++;
      while (index < lines.length && !lines[index]!.trim().startsWith(marker)) body.push(lines[index++]!);
      index++; // The closing fence, or past the end while the fence is still streaming.
      blocks.push({ type: "code", language: fence[2] ?? "", text: body.join("\n") });
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      blocks.push({ type: "heading", content: parseInline(heading[1]!) });
      index++;
      continue;
    }
    if (QUOTE.test(line)) {
      const quoted: string[] = [];
      while (index < lines.length && QUOTE.test(lines[index]!)) quoted.push(QUOTE.exec(lines[index++]!)![1]!);
      blocks.push({ type: "quote", lines: quoted.map((line) => parseInline(line)) });
      continue;
    }
    const numbered = NUMBERED.exec(line);
    if (numbered || BULLET.test(line)) {
      const ordered = numbered !== null;
      const pattern = ordered ? NUMBERED : BULLET;
      const items: string[][] = [];
      while (index < lines.length) {
        const current = lines[index]!;
        const item = pattern.exec(current);
        if (item) items.push([ordered ? item[2]! : item[1]!]);
        else if (CONTINUATION.test(current) && items.length > 0) items.at(-1)!.push(current.trim());
        else break;
        index++;
      }
      blocks.push({
        type: "list",
        ordered,
        start: ordered ? Number(numbered[1]) : 1,
        items: items.map((itemLines) => itemLines.map((line) => parseInline(line))),
      });
      continue;
    }
    const paragraph: string[] = [];
    while (index < lines.length) {
      const current = lines[index]!;
      if (current.trim() === "" || FENCE.test(current) || HEADING.test(current) || QUOTE.test(current)) break;
      if (paragraph.length > 0 && (BULLET.test(current) || NUMBERED.test(current))) break;
      paragraph.push(current.trim());
      index++;
    }
    blocks.push({ type: "paragraph", lines: paragraph.map((line) => parseInline(line)) });
  }
  return blocks;
}

interface InlineRule {
  pattern: RegExp;
  /** Makes a link: skipped inside a link's text. */
  link?: true;
  build: (match: RegExpExecArray) => MarkdownInline;
}

const INLINE_RULES: InlineRule[] = [
  { pattern: /`([^`\n]+)`/, build: (match) => ({ type: "code", text: match[1]! }) },
  {
    link: true,
    pattern: /\[([^\]\n]+)\]\(\s*([^)\s]+)(?:\s+"[^"\n]*")?\s*\)/,
    build: (match) => {
      const href = safeHref(match[2]!);
      // An unsafe link stays visible, as inert text.
      return href ? { type: "link", href, content: parseInline(match[1]!, false) } : { type: "text", text: match[0] };
    },
  },
  {
    link: true,
    pattern: /\bhttps?:\/\/[^\s<>"'`]*[^\s<>"'`.,;:!?)\]]/,
    build: (match) => ({ type: "link", href: match[0], content: [{ type: "text", text: match[0] }] }),
  },
  { pattern: /\*\*(?=\S)([^\n]*?\S)\*\*/, build: (match) => ({ type: "strong", content: parseInline(match[1]!) }) },
  { pattern: /\b__(?=\S)([^\n]*?\S)__\b/, build: (match) => ({ type: "strong", content: parseInline(match[1]!) }) },
  { pattern: /(?<![*\w])\*(?=\S)([^*\n]*?\S)\*(?![*\w])/, build: (match) => ({ type: "em", content: parseInline(match[1]!) }) },
  { pattern: /(?<![_\w])_(?=\S)([^_\n]*?\S)_(?![_\w])/, build: (match) => ({ type: "em", content: parseInline(match[1]!) }) },
];

/** Splits one line into inline spans. `links` false inside a link's text (no nested links). */
export function parseInline(text: string, links = true): MarkdownInline[] {
  const spans: MarkdownInline[] = [];
  let rest = text;
  while (rest !== "") {
    let best: { index: number; match: RegExpExecArray; rule: InlineRule } | undefined;
    for (const rule of INLINE_RULES) {
      if (!links && rule.link) continue;
      const match = rule.pattern.exec(rest);
      if (match && (!best || match.index < best.index)) best = { index: match.index, match, rule };
    }
    if (!best) {
      pushText(spans, rest);
      break;
    }
    if (best.index > 0) pushText(spans, rest.slice(0, best.index));
    const span = best.rule.build(best.match);
    if (span.type === "text") pushText(spans, span.text);
    else spans.push(span);
    rest = rest.slice(best.index + best.match[0].length);
  }
  return spans;
}

function pushText(spans: MarkdownInline[], text: string): void {
  const last = spans.at(-1);
  if (last?.type === "text") last.text += text;
  else spans.push({ type: "text", text });
}
