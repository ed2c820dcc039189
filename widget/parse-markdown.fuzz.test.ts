/**
 * Fuzzing the widget's linear, incremental markdown parser with hostile but
 * realistic replies: headings, lists, quotes, fences (closed and streaming),
 * inline code, emphasis runs, links with unsafe schemes, HTML, unicode and
 * line separators, every newline, huge tokens and deep nesting, streamed in
 * any parts. FUZZ_RUNS cases (10,000 here, 100,000 in `npm run fuzz`).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { chunkingsOf, cutPoints, fuzzProperty, fuzzTimeout } from "../runtime/test-support/fuzz-property.js";
import { hostileMix, hostileWord, newline } from "../runtime/test-support/hostile-text.js";
import { parseMarkdown, parseMarkdownIncrementally, type MarkdownBlock, type MarkdownInline, type MarkdownParse } from "./parse-markdown.js";
import { safeHref } from "./safe-href.js";

const TAGS = ["```", "~~~", "**", "__", "`", "[", "](", "> ", "- ", "1. ", "# ", "###### "];

const inline = fc.oneof(
  hostileWord,
  hostileWord.map((text) => `**${text}**`),
  hostileWord.map((text) => `_${text}_`),
  hostileWord.map((text) => `*${text}*`),
  hostileWord.map((text) => `\`${text}\``),
  fc.tuple(hostileWord, fc.constantFrom("https://shop.example/a?b=1", "/cart", "mailto:a@b.example", "javascript:alert(1)", " JaVa\tScRiPt:alert(1)", "data:text/html,<script>x</script>", "vbscript:x", "", "https://x.example/(a)")).map(([text, href]) => `[${text}](${href})`),
  fc.constantFrom("<script>alert(1)</script>", "<img src=x onerror=alert(1)>", "&lt;b&gt;", "***", "____", "``", "[[[", "]]](", "\\*", "**_`[", "\u2028", "\u2029"),
);
const line = fc.array(inline, { maxLength: 6 }).map((parts) => parts.join(" "));
const piece = fc.oneof(
  { weight: 4, arbitrary: line },
  { weight: 2, arbitrary: fc.tuple(fc.integer({ min: 1, max: 7 }), line).map(([level, text]) => `${"#".repeat(level)} ${text} ${"#".repeat(level % 3)}`) },
  { weight: 2, arbitrary: fc.tuple(fc.constantFrom("- ", "* ", "+ ", "1. ", "2) ", "123456789. ", "   - ", "  "), line).map(([marker, text]) => `${marker}${text}`) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom("> ", ">", "   > "), line).map(([marker, text]) => `${marker}${text}`) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom("```", "~~~", "````"), fc.constantFrom("", "ts", "c++", "a b"), fc.array(line, { maxLength: 4 }), fc.boolean()).map(([fence, language, body, closed]) => `${fence}${language}\n${body.join("\n")}${closed ? `\n${fence}` : ""}`) },
);
const reply = hostileMix(fc.tuple(piece, newline).map(([text, end]) => text + end), TAGS, 30);

/** Feeds growing prefixes of `text` (cut at `offsets`) as a stream does: every parse. */
function stream(text: string, offsets: readonly number[]): MarkdownParse[] {
  const parses: MarkdownParse[] = [];
  let previous: MarkdownParse | undefined;
  for (const [, end] of cutPoints(text.length, offsets)) {
    previous = parseMarkdownIncrementally(text.slice(0, end), previous);
    parses.push(previous);
  }
  return parses;
}

/** Blocks are plain data built in one order: equal JSON is equal blocks (vitest's deep equality, with its diff, only on a mismatch). */
function expectSame(actual: MarkdownBlock[], expected: MarkdownBlock[]): void {
  if (JSON.stringify(actual) !== JSON.stringify(expected)) expect(actual).toEqual(expected);
}

const BLOCKS = new Set(["paragraph", "heading", "list", "quote", "code"]);
const INLINES = new Set(["text", "code", "strong", "em", "link"]);

/** Only the documented block and span types, and only safe link targets (plain throws: `expect` per span costs more than the parse). */
function checkData(blocks: MarkdownBlock[]): void {
  const fail = (what: string, value: unknown) => {
    throw new Error(`${what}: ${JSON.stringify(value).slice(0, 200)}`);
  };
  const spans = (line: MarkdownInline[]): void => {
    for (const span of line) {
      if (!INLINES.has(span.type)) fail("an undocumented span", span);
      if (span.type === "link" && safeHref(span.href) !== span.href) fail("an unsafe link", span);
      if (span.type === "strong" || span.type === "em" || span.type === "link") spans(span.content);
    }
  };
  for (const block of blocks) {
    if (!BLOCKS.has(block.type)) fail("an undocumented block", block);
    if (block.type === "paragraph" || block.type === "quote") block.lines.forEach(spans);
    else if (block.type === "heading") spans(block.content);
    else if (block.type === "list") block.items.forEach((item) => item.forEach(spans));
  }
}

describe("fuzz: the markdown parser", () => {
  it(
    "no throw, no case over 100 ms, the whole text's blocks for any streaming, every step equal to a fresh parse, only documented data and safe links",
    () => {
      // Each part re-parses the open block (a 6,000-character line costs ~1 ms a time): 2 streams of up to 17 parts keep a case a case.
      fuzzProperty("markdown-parser", fc.tuple(reply, chunkingsOf(16, 2)), ([text, cuts]) => {
        const whole = parseMarkdown(text);
        checkData(whole);
        for (const offsets of cuts) {
          const parses = stream(text, offsets);
          expectSame(parses.at(-1)!.blocks, whole);
          for (const parse of parses.slice(0, 8)) expectSame(parse.blocks, parseMarkdown(parse.text));
        }
      });
    },
    fuzzTimeout(),
  );
});
