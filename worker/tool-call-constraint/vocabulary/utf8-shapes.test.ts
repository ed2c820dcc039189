import { describe, expect, it } from "vitest";
import { byteLevelAlphabet } from "./byte-level-alphabet.js";
import { loadXGrammar } from "../load-xgrammar.js";
import { ToolCallConstraint } from "../tool-call-constraint.js";
import { Utf8Shapes, utf8Step } from "./utf8-shapes.js";

/** A byte-level token string from raw bytes (each byte's stand-in character). */
const bytes = (...values: number[]) => values.map((value) => byteLevelAlphabet().toChar[value]).join("");

// "ü" is C3 BC, "✓" is E2 9C 93; E0, ED, 80, A0, C0 and F5 for the ill-formed sequences xgrammar lets through.
const VOCABULARY = ["a", '"', bytes(0xc3), bytes(0xbc), bytes(0xc3, 0xbc), bytes(0xe2, 0x9c), bytes(0x93), bytes(0xc3, 0xc3), bytes(0xbc, 0xbc), bytes(0xe0), bytes(0xed), bytes(0x80), bytes(0xa0), bytes(0xc0), bytes(0xf5), "<tool_call>", "\n", "</tool_call>", ""];
const id = (token: string) => VOCABULARY.indexOf(token);

describe("Utf8Shapes", () => {
  const shapes = Utf8Shapes.for(VOCABULARY);

  it("follows characters across tokens, and refuses bytes that would not be well-formed UTF-8", () => {
    const state = (...values: number[]) => values.reduce((current, value) => utf8Step(current, value), 0);
    expect(shapes.after(id("a"), 0)).toBe(0);
    expect(shapes.after(id(bytes(0xc3, 0xbc)), 0)).toBe(0);
    expect(shapes.after(id(bytes(0xbc)), shapes.after(id(bytes(0xc3)), 0))).toBe(0);
    expect(shapes.after(id(bytes(0x93)), shapes.after(id(bytes(0xe2, 0x9c)), 0))).toBe(0);
    // Ill-formed: a continuation byte with nothing to continue, a character cut short, one continuation too many.
    expect(shapes.after(id(bytes(0xbc)), 0)).toBe(-1);
    expect(shapes.after(id("a"), state(0xc3))).toBe(-1);
    expect(shapes.after(id(bytes(0xc3)), state(0xc3))).toBe(-1);
    expect(shapes.after(id(bytes(0xc3, 0xc3)), 0)).toBe(-1);
    expect(shapes.after(id(bytes(0xbc, 0xbc)), state(0xc3))).toBe(-1);
    // Overlong forms, surrogates, past U+10FFFF, and bytes that never occur.
    for (const sequence of [[0xc0, 0x80], [0xe0, 0x80, 0x80], [0xed, 0xa0, 0x80], [0xf0, 0x80, 0x80, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xf5], [0xff]]) expect(state(...sequence), sequence.join(" ")).toBe(-1);
    for (const text of ["ü", "✓", "한", "\ud7ff", "\ue000", "😀", "\u{10ffff}"]) expect(state(...new TextEncoder().encode(text)), text).toBe(0);
  });

  it("inside a call the constraint allows only tokens that keep the text well-formed (xgrammar alone takes C0, F5, overlong forms and surrogates)", async () => {
    const xgrammar = await loadXGrammar();
    const info = await xgrammar.TokenizerInfo.createTokenizerInfo(VOCABULARY, "byte_level", false, VOCABULARY.length, [VOCABULARY.length - 1]);
    const compiler = await xgrammar.GrammarCompiler.createGrammarCompiler(info, false);
    const compiled = await compiler.compileGrammar('root ::= "\\n" "\\"" [^"<\\n]* "\\"" "\\n</tool_call>"', "root");
    const vocabulary = { vocabSize: VOCABULARY.length, encoded: [...VOCABULARY], stopIds: [], buildMs: 0 };
    const subject = new ToolCallConstraint({
      grammar: { syntax: "hermes-json", callOpen: "<tool_call>", callClose: "</tool_call>", tools: [] },
      texts: vocabulary.encoded,
      vocabulary: () => vocabulary,
      toolChoice: "auto",
      thinking: false,
      maxNewTokens: 100,
      createMatcher: () => xgrammar.GrammarMatcher.createGrammarMatcher(compiled, undefined, true),
    });
    const allowedAfter = async (written: string[]) => {
      for (const token of written) subject.observe(id(token));
      await subject.prepare();
      const logits = new Float32Array(VOCABULARY.length);
      subject.apply(logits);
      return VOCABULARY.filter((_, index) => logits[index] !== -Infinity);
    };
    await allowedAfter(["<tool_call>", "\n"]);
    const matcher = await xgrammar.GrammarMatcher.createGrammarMatcher(compiled, undefined, true);
    const xgrammarAllows = async () => {
      const bitmask = await matcher.getNextTokenBitmask();
      return VOCABULARY.filter((_, index) => (bitmask[index >> 5]! >>> (index & 31)) & 1);
    };
    const step = async (token: string) => {
      matcher.acceptToken(id(token));
      return [await xgrammarAllows(), await allowedAfter([token])];
    };
    matcher.acceptToken(id("\n"));
    let [loose, kept] = await step('"');
    expect(loose).toEqual(["a", '"', bytes(0xc3), bytes(0xc3, 0xbc), bytes(0xe2, 0x9c), bytes(0xe0), bytes(0xed), bytes(0xc0), bytes(0xf5)]);
    expect(kept).toEqual(["a", '"', bytes(0xc3), bytes(0xc3, 0xbc), bytes(0xe2, 0x9c), bytes(0xe0), bytes(0xed)]);
    // After E0 only A0-BF may come (80 would be an overlong form); after ED only 80-9F (A0 would be a surrogate).
    [loose, kept] = await step(bytes(0xe0));
    expect(loose).toEqual(expect.arrayContaining([bytes(0x80), bytes(0xa0), bytes(0xbc)]));
    expect(kept).toEqual([bytes(0xbc), bytes(0xbc, 0xbc), bytes(0xa0)]);
    [, kept] = await step(bytes(0xa0));
    expect(kept).toEqual([bytes(0xbc), bytes(0x93), bytes(0x80), bytes(0xa0)]);
    await step(bytes(0x80));
    [loose, kept] = await step(bytes(0xed));
    expect(loose).toEqual(expect.arrayContaining([bytes(0xa0)]));
    expect(kept).toEqual([bytes(0x93), bytes(0x80)]);
    matcher.dispose();
  });
});
