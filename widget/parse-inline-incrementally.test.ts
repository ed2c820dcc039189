import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { hostileWord } from "../runtime/test-support/hostile-text.js";
import { codeSpanLine, DELIMITER_RUNS, delimiterRunLine } from "../bench/markdown/markdown-bench-texts.js";
import { parseInline } from "./parse-inline.js";
import { parseInlineIncrementally, type InlineParse } from "./parse-inline-incrementally.js";

// Pieces of one line: every rule's opener and closer alone and in matches, so a cut can fall inside any of them.
const piece = fc.oneof(
  hostileWord.filter((word) => !word.includes("\n")),
  fc.constantFrom("`", "``", "*", "**", "_", "__", "[", "]", "](", "(", ")", '"', " ", "a", "h", "http", "https://", "http://x.example/a.", "a_b", "*a*", "**a**", "_a_", "__a__", "`a`", "[a](/b)", "[a](javascript:x)", '[a](/b "t")', "\\*"),
);
const line = fc.array(piece, { minLength: 1, maxLength: 300 }).map((pieces) => pieces.join(""));

/** Every growing prefix of `text` cut at `cuts` (fractions), each parsed continuing the one before. */
function streamed(text: string, cuts: number[]): { prefix: string; parse: InlineParse }[] {
  const ends = [...new Set([...cuts.map((cut) => Math.floor(cut * text.length)), text.length])].filter((end) => end > 0).sort((a, b) => a - b);
  const steps: { prefix: string; parse: InlineParse }[] = [];
  let previous: InlineParse | undefined;
  for (const end of ends) {
    const prefix = text.slice(0, end);
    previous = parseInlineIncrementally(prefix, previous);
    steps.push({ prefix, parse: previous });
  }
  return steps;
}

describe("parseInlineIncrementally", () => {
  it("equals a fresh parseInline at every step, however the line is cut (2,000 random lines)", () => {
    fc.assert(
      fc.property(line, fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 12 }), (text, cuts) => {
        for (const { prefix, parse } of streamed(text, cuts)) expect(JSON.stringify(parse.spans)).toBe(JSON.stringify(parseInline(prefix)));
      }),
      { numRuns: 2_000 },
    );
  });

  it.each([
    ["code spans", codeSpanLine()] as const,
    ...DELIMITER_RUNS.map(({ name, unit }) => [name, delimiterRunLine(unit)] as const),
  ])("a 150 KB line of %s streamed in 30 parts: equal to a fresh parse, and only its end is read again", (_name, text) => {
    const steps = streamed(text, Array.from({ length: 29 }, (_, index) => (index + 1) / 30));
    const last = steps.at(-1)!;
    expect(JSON.stringify(last.parse.spans)).toBe(JSON.stringify(parseInline(text)));
    // Lines with spans settle up to their last few characters; a line of one text span (no finished span in it) never does.
    if (last.parse.spans.length > 1) expect(last.parse.settledAt).toBeGreaterThan(text.length - 1_000);
  });

  it("starts afresh on a text that does not continue the previous one", () => {
    const first = parseInlineIncrementally("`a` and `b`");
    expect(parseInlineIncrementally("`c` and", first).spans).toEqual(parseInline("`c` and"));
  });
});
