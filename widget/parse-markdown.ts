import { parseInline } from "./parse-inline.js";
import { parseInlineIncrementally, type InlineParse } from "./parse-inline-incrementally.js";

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

/** An inline span. `link` holds an href already checked by `safeHref`. */
export type MarkdownInline =
  | { type: "text"; text: string }
  | { type: "code"; text: string }
  | { type: "strong"; content: MarkdownInline[] }
  | { type: "em"; content: MarkdownInline[] }
  | { type: "link"; href: string; content: MarkdownInline[] };

/**
 * A parse that a longer text can continue: `blocks` of `text` (line breaks
 * normalized to `\n`), of which the first `finishedBlocks` end on lines that
 * no appended text can change. Treat it as opaque; pass it back to
 * {@link parseMarkdownIncrementally}.
 */
export interface MarkdownParse {
  /** The text with `\r\n` and `\r` turned into `\n`. */
  text: string;
  blocks: MarkdownBlock[];
  /** How many of `blocks` are finished. */
  finishedBlocks: number;
  /** Where, in `text`, the line after the last finished block starts. */
  finishedLength: number;
  /** The last long line's spans, which the next parse continues when that line grew (one line of 150 KB, streamed). */
  longLine?: InlineParse;
}

/** Lines at least this long are parsed so that the next parse can continue them. */
const CONTINUED_LINE_CHARS = 1_000;

const FENCE = /^\s{0,3}(`{3,}|~{3,})\s*([\w+#.-]*)[^\n]*$/;
// `(?=(\s+))\1` is `\s+` that never gives back (an atomic group): with a plain `\s+(.*)$`, a line whose
// text holds U+2028 or U+2029 (which `.` does not match) after 9,500 spaces backtracked for 200 ms. It
// matches the same lines: giving whitespace back to `.*` can never get it past a line terminator.
const BULLET = /^\s{0,3}[-*+](?=(\s+))\1(.*)$/;
const NUMBERED = /^\s{0,3}(\d{1,9})[.)](?=(\s+))\2(.*)$/;
const HEADING_START = /^\s{0,3}#{1,6}\s+/;
const QUOTE = /^\s{0,3}>\s?(.*)$/;
const CONTINUATION = /^\s{2,}\S/;
/** `.` in the earlier heading pattern did not match these; `(.*?)` stopped at them. */
const LINE_TERMINATOR = /[\u2028\u2029]/;

/** Splits `text` into blocks. */
export function parseMarkdown(text: string): MarkdownBlock[] {
  return parseMarkdownIncrementally(text).blocks;
}

/**
 * Splits `text` into blocks, reusing `previous` when `text` continues it:
 * finished blocks are kept as they are (the same objects) and only the lines
 * after them are parsed again, so streamed text costs the same as the whole
 * text. The result equals `parseMarkdown(text)` whatever `previous` was.
 */
export function parseMarkdownIncrementally(text: string, previous?: MarkdownParse): MarkdownParse {
  const normalized = text.replace(/\r\n?/g, "\n");
  const reuse = previous !== undefined && previous.finishedBlocks > 0 && normalized.startsWith(previous.text.slice(0, previous.finishedLength));
  const offset = reuse ? previous.finishedLength : 0;
  const lines = normalized.slice(offset).split("\n");
  let longLine: InlineParse | undefined;
  const parseLine = (line: string): MarkdownInline[] => {
    if (line.length < CONTINUED_LINE_CHARS) return parseInline(line);
    longLine = parseInlineIncrementally(line, previous?.longLine);
    return longLine.spans;
  };
  const parsed = parseBlocks(lines, parseLine);
  // A block is finished when the line that ended it is followed by a line
  // break: a later append can change only the last, unfinished line (a "-"
  // that becomes a list item, a blank line that becomes text).
  const lastLine = lines.length - 1;
  let finishedBlocks = 0;
  let finishedLines = 0;
  for (const { endLine } of parsed) {
    if (endLine >= lastLine) break;
    finishedBlocks++;
    finishedLines = endLine;
  }
  let finishedLength = offset;
  for (let index = 0; index < finishedLines; index++) finishedLength += lines[index]!.length + 1;
  const blocks = parsed.map(({ block }) => block);
  return {
    text: normalized,
    blocks: reuse ? [...previous.blocks.slice(0, previous.finishedBlocks), ...blocks] : blocks,
    finishedBlocks: (reuse ? previous.finishedBlocks : 0) + finishedBlocks,
    finishedLength,
    ...(longLine && { longLine }),
  };
}

/** The blocks of `lines`, each with the line after it (the one that ended it). */
function parseBlocks(lines: string[], parseInline: (line: string) => MarkdownInline[]): { block: MarkdownBlock; endLine: number }[] {
  const blocks: { block: MarkdownBlock; endLine: number }[] = [];
  const push = (block: MarkdownBlock) => blocks.push({ block, endLine: index });
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
      push({ type: "code", language: fence[2] ?? "", text: body.join("\n") });
      continue;
    }
    const heading = headingContent(line);
    if (heading !== undefined) {
      index++;
      push({ type: "heading", content: parseInline(heading) });
      continue;
    }
    if (QUOTE.test(line)) {
      const quoted: string[] = [];
      while (index < lines.length && QUOTE.test(lines[index]!)) quoted.push(QUOTE.exec(lines[index++]!)![1]!);
      push({ type: "quote", lines: quoted.map((line) => parseInline(line)) });
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
        if (item) items.push([ordered ? item[3]! : item[2]!]);
        else if (CONTINUATION.test(current) && items.length > 0) items.at(-1)!.push(current.trim());
        else break;
        index++;
      }
      push({
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
      if (current.trim() === "" || FENCE.test(current) || headingContent(current) !== undefined || QUOTE.test(current)) break;
      if (paragraph.length > 0 && (BULLET.test(current) || NUMBERED.test(current))) break;
      paragraph.push(current.trim());
      index++;
    }
    push({ type: "paragraph", lines: paragraph.map((line) => parseInline(line)) });
  }
  return blocks;
}

/**
 * A heading's text: what `^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$` captured, found
 * without it. That pattern backtracked cubically on a heading with a long run
 * of spaces (8,000 took 100 s); stripping the closing `#`s from the end is
 * linear.
 */
function headingContent(line: string): string | undefined {
  const start = HEADING_START.exec(line);
  if (!start) return undefined;
  const rest = line.slice(start[0].length).trimEnd();
  let end = rest.length;
  while (end > 0 && rest.charCodeAt(end - 1) === 35) end--; // #
  const content = rest.slice(0, end).trimEnd();
  return LINE_TERMINATOR.test(content) ? undefined : content;
}
