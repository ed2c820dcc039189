import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { markdownishText } from "../bench/markdown/markdownish-text.js";
import { parseInline } from "./parse-inline.js";
import { parseMarkdown, parseMarkdownIncrementally, type MarkdownBlock, type MarkdownInline, type MarkdownParse } from "./parse-markdown.js";
import { safeHref } from "./safe-href.js";

/** Feeds `text` in the given cut points, as a stream would, and returns every parse. */
function stream(text: string, cuts: number[]): MarkdownParse[] {
  const parses: MarkdownParse[] = [];
  let previous: MarkdownParse | undefined;
  for (const cut of [...new Set(cuts.map((cut) => Math.min(cut, text.length)))].sort((a, b) => a - b).concat(text.length)) {
    previous = parseMarkdownIncrementally(text.slice(0, cut), previous);
    parses.push(previous);
  }
  return parses;
}

/** Throws unless `blocks` is exactly the documented data: known types, known keys, strings and numbers only. */
function assertDocumentedData(blocks: MarkdownBlock[]): void {
  const keys = (value: object, expected: string[]) => expect(Object.keys(value).sort()).toEqual([...expected].sort());
  const spans = (line: MarkdownInline[]) => {
    expect(Array.isArray(line)).toBe(true);
    for (const span of line) {
      switch (span.type) {
        case "text":
        case "code":
          keys(span, ["type", "text"]);
          expect(typeof span.text).toBe("string");
          break;
        case "strong":
        case "em":
          keys(span, ["type", "content"]);
          spans(span.content);
          break;
        case "link":
          keys(span, ["type", "href", "content"]);
          // A bare URL is http(s) by its pattern, even where the URL parser would refuse it.
          expect(safeHref(span.href) === span.href || /^https?:\/\//.test(span.href)).toBe(true);
          spans(span.content);
          break;
        default:
          throw new Error(`unknown span ${JSON.stringify(span)}`);
      }
    }
  };
  for (const block of blocks) {
    switch (block.type) {
      case "paragraph":
      case "quote":
        keys(block, ["type", "lines"]);
        block.lines.forEach(spans);
        break;
      case "heading":
        keys(block, ["type", "content"]);
        spans(block.content);
        break;
      case "list":
        keys(block, ["type", "ordered", "start", "items"]);
        expect(Number.isInteger(block.start)).toBe(true);
        block.items.forEach((item) => item.forEach(spans));
        break;
      case "code":
        keys(block, ["type", "language", "text"]);
        expect(typeof block.text).toBe("string");
        break;
      default:
        throw new Error(`unknown block ${JSON.stringify(block)}`);
    }
  }
}

describe("parseMarkdownIncrementally", () => {
  it("keeps finished blocks as the same objects and parses only the open one", () => {
    const first = parseMarkdownIncrementally("# Title\n\nOne paragraph.\n\n- a\n- b");
    expect(first.finishedBlocks).toBe(2);
    const second = parseMarkdownIncrementally("# Title\n\nOne paragraph.\n\n- a\n- b\n- c", first);
    expect(second.blocks[0]).toBe(first.blocks[0]);
    expect(second.blocks[1]).toBe(first.blocks[1]);
    expect(second.blocks[2]).toMatchObject({ type: "list", items: [[[{ text: "a" }]], [[{ text: "b" }]], [[{ text: "c" }]]] });
  });

  it("does not finish a block that the last, unfinished line can still join", () => {
    // "-" alone starts a paragraph; "- b" joins the list above it.
    const parses = stream("- a\n- b", [5]);
    expect(parses[0]!.blocks.map((block) => block.type)).toEqual(["list", "paragraph"]);
    expect(parses[0]!.finishedBlocks).toBe(0);
    expect(parses[1]!.blocks).toEqual(parseMarkdown("- a\n- b"));
    // A blank last line that becomes text continues the paragraph.
    expect(stream("para\nmore", [5]).at(-1)!.blocks).toEqual([{ type: "paragraph", lines: [[{ type: "text", text: "para" }], [{ type: "text", text: "more" }]] }]);
  });

  it("reads \\r then \\n, split across parts, as one line break", () => {
    expect(stream("a\r\n\r\nb\r\nc", [2, 4, 7]).at(-1)!.blocks).toEqual(parseMarkdown("a\n\nb\nc"));
  });

  it("starts over when the text does not continue the previous one", () => {
    const first = parseMarkdownIncrementally("one\n\ntwo\n\nthree");
    expect(parseMarkdownIncrementally("uno\n\ntwo", first).blocks).toEqual(parseMarkdown("uno\n\ntwo"));
  });

  it("gives the whole text's blocks however the text was streamed (property)", () => {
    fc.assert(
      fc.property(markdownishText(), fc.array(fc.nat({ max: 2_000 }), { maxLength: 30 }), (text, cuts) => {
        const parses = stream(text, cuts);
        expect(parses.at(-1)!.blocks).toEqual(parseMarkdown(text));
        for (const parse of parses) expect(parse.blocks).toEqual(parseMarkdown(parse.text));
      }),
      { numRuns: 2_000 },
    );
  });
});

describe("parseMarkdown on any input", () => {
  it("returns only the documented data, never HTML, and finishes at once (property)", () => {
    fc.assert(
      fc.property(markdownishText({ maxLength: 4_000, maxRun: 2_000 }), (text) => {
        const started = performance.now();
        const blocks = parseMarkdown(text);
        // A hang guard, not a timing target: the old parser took seconds on some of these.
        expect(performance.now() - started).toBeLessThan(200);
        assertDocumentedData(blocks);
      }),
      { numRuns: 2_000 },
    );
  });

  it("parses pathological lines in linear time (hang guard)", () => {
    const cases = [
      "`a` ".repeat(37_500), // 150 KB of inline code spans
      "`".repeat(150_000),
      "[a](b".repeat(30_000),
      "**a ".repeat(37_500),
      "*a ".repeat(50_000),
      "_a ".repeat(50_000),
      "http://x".repeat(18_000) + ".".repeat(10_000),
      `# a${" ".repeat(100_000)}b`, // the old heading pattern: cubic, 100 s for 8,000 spaces
      "> a\n".repeat(30_000),
      `- ${"x ".repeat(20_000)}\n`.repeat(3),
    ];
    for (const text of cases) {
      const started = performance.now();
      parseMarkdown(text);
      expect(performance.now() - started, text.slice(0, 20)).toBeLessThan(2_000);
    }
  });
});

describe("headings", () => {
  it.each([
    ["# Title", "Title"],
    ["## Title ##", "Title"],
    ["### Title #  ", "Title"],
    ["#   ", ""],
    ["# #", ""],
    ["# a#b", "a#b"],
    ["   # indented", "indented"],
  ])("%j is a heading of %j", (line, text) => {
    expect(parseMarkdown(line)).toEqual([{ type: "heading", content: text === "" ? [] : [{ type: "text", text }] }]);
  });

  it.each(["#Title", "####### seven", "    # four spaces"])("%j is not a heading", (line) => {
    expect(parseMarkdown(line)[0]!.type).toBe("paragraph");
  });
});

describe("parseInline", () => {
  it("finds each closer once: the nearest one, ties to the earlier rule", () => {
    expect(parseInline("`a` `b`")).toEqual([
      { type: "code", text: "a" },
      { type: "text", text: " " },
      { type: "code", text: "b" },
    ]);
    expect(parseInline("``x`")).toEqual([{ type: "text", text: "`" }, { type: "code", text: "x" }]);
    expect(parseInline("**a `b** c`")).toEqual([{ type: "strong", content: [{ type: "text", text: "a `b" }] }, { type: "text", text: " c`" }]);
    expect(parseInline("[t](https://a.test \"title\")")).toEqual([{ type: "link", href: "https://a.test", content: [{ type: "text", text: "t" }] }]);
    expect(parseInline("see https://a.test/x).")).toEqual([
      { type: "text", text: "see " },
      { type: "link", href: "https://a.test/x", content: [{ type: "text", text: "https://a.test/x" }] },
      { type: "text", text: ")." },
    ]);
  });

  it("makes no link inside a link's text, even inside bold", () => {
    expect(parseInline("[see **https://b.test**](https://a.test)")).toEqual([
      { type: "link", href: "https://a.test", content: [{ type: "text", text: "see " }, { type: "strong", content: [{ type: "text", text: "https://b.test" }] }] },
    ]);
  });
});
