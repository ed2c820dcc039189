import { describe, expect, it } from "vitest";
import type { MarkdownInline } from "./parse-markdown.js";
import { spanLength, splitLongLine } from "./split-long-line.js";

const text = (value: string): MarkdownInline => ({ type: "text", text: value });
const code = (value: string): MarkdownInline => ({ type: "code", text: value });
const joined = (spans: MarkdownInline[]) => spans.map((span) => (span.type === "text" || span.type === "code" ? span.text : `<${span.type}>`)).join("");

describe("splitLongLine", () => {
  it("cuts plain text after the first space past each size, keeping every character", () => {
    const line = [text("aaaa bbbb cccc dddd eeee")];
    const pieces = splitLongLine(line, 7);
    expect(pieces.map(joined)).toEqual(["aaaa bbbb ", "cccc dddd ", "eeee"]);
  });

  it("counts code and nested spans, and cuts only in text", () => {
    const line = [code("12345678"), text(" x "), { type: "strong", content: [text("bold words")] } as MarkdownInline, text(" tail end")];
    expect(spanLength(line[2]!)).toBe(10);
    const pieces = splitLongLine(line, 8);
    expect(pieces.map(joined)).toEqual(["12345678 ", "x <strong> ", "tail end"]);
    expect(pieces.flat().filter((span) => span.type !== "text")).toEqual([line[0], line[2]]);
  });

  it("cuts a string with no space every two sizes, and leaves a shorter one whole", () => {
    expect(splitLongLine([text("a".repeat(50))], 10).map(joined)).toEqual(["a".repeat(20), "a".repeat(20), "a".repeat(10)]);
    expect(splitLongLine([text("a".repeat(15))], 10).map(joined)).toEqual(["a".repeat(15)]);
  });

  it("ends a piece after any span once it holds two sizes, where the plain text has no space (`a`a`a…)", () => {
    const line = Array.from({ length: 5000 }, (_, index) => (index % 2 ? text("a") : code("a")));
    const pieces = splitLongLine(line, 100);
    expect(pieces.flat()).toEqual(line);
    expect(Math.max(...pieces.map((piece) => piece.reduce((total, span) => total + spanLength(span), 0)))).toBe(200);
    expect(pieces).toHaveLength(25);
    // Stable as the line grows.
    expect(splitLongLine([...line, code("b"), text("c")], 100).slice(0, pieces.length - 1)).toEqual(pieces.slice(0, -1));
  });

  it("keeps its pieces as the line grows: only the last one changes", () => {
    const words = Array.from({ length: 400 }, (_, index) => `word${index}`).join(" ");
    const before = splitLongLine([text(words)], 100);
    const after = splitLongLine([text(`${words} and more`)], 100);
    expect(after.slice(0, -1)).toEqual(before.slice(0, -1));
  });
});
