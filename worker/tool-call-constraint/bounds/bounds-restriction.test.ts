import { beforeAll, describe, expect, it } from "vitest";
import { randomTools, seededRandom } from "../../../bench/constraint/random-json-schema.js";
import { modelFormat } from "../../../models/model-formats.js";
import { buildCallGrammar } from "../grammar/build-call-grammar.js";
import { loadXGrammar, type XGrammar } from "../load-xgrammar.js";
import { byteLevelAlphabet } from "../vocabulary/byte-level-alphabet.js";
import { TokenShapes } from "../vocabulary/token-shapes.js";
import type { Vocabulary } from "../vocabulary/tokenizer-vocabulary.js";
import { refusedByBounds } from "./bounds-restriction.js";
import { callWalker } from "./call-walker.js";
import { WHITESPACE_LIMIT } from "./json-walker.js";

const encoder = new TextEncoder();
const space = (count: number) => " ".repeat(count);
// Characters, whitespace runs on each side of the limit (alone, leading and inside), quotes and tags in pieces.
const TEXTS = [
  ...Array.from({ length: 95 }, (_, index) => String.fromCharCode(32 + index)),
  "\n", "\t", "ü", "✓", "😀",
  space(4), space(WHITESPACE_LIMIT), space(WHITESPACE_LIMIT + 6), `\n${space(WHITESPACE_LIMIT + 2)}`, `${space(WHITESPACE_LIMIT + 3)}}`, `${space(12)}"`,
  `"${space(WHITESPACE_LIMIT + 4)}}`, `a${space(WHITESPACE_LIMIT + 1)}b`, `>${space(WHITESPACE_LIMIT + 1)}`, `</parameter>${space(WHITESPACE_LIMIT + 2)}`,
  '": ', ", ", '{"', '"}', '",', '":"",', '\\"', "\\u00", "</", "</parameter>", "<parameter=", "\n<parameter=", "</tool_call>", "parameter", "function", ">\n", "true", "null", "abcdefgh",
  // Tokens that end an item and add the next, or close nested values first (Qwen's vocabulary has each).
  "[],", "[]", "[],\n", '":""', "note", '{"arguments": {"', "],", "]],", "]]", "[[", "{},", "},", "12,", "1,2", "true,", '"a",', '"],', '"",', '""]', '"]],',
];
const { toChar } = byteLevelAlphabet();
const byteLevel = (text: string) => Array.from(encoder.encode(text), (byte) => toChar[byte]).join("");
const VOCABULARY: Vocabulary = { vocabSize: TEXTS.length, encoded: TEXTS.map(byteLevel), stopIds: [], buildMs: 0 };
const has = (mask: Int32Array, id: number) => ((mask[id >> 5]! >>> (id & 31)) & 1) === 1;

/**
 * The tables are shortcuts: a token is refused from them (its leading
 * whitespace, its characters against a length's room) or fed to a copy of
 * the walker. Either way the refusal must be the walker's own, token for
 * token, wherever a call stands.
 */
describe("refusedByBounds: exactly the tokens the walker refuses, among those xgrammar allows", () => {
  let xgrammar: XGrammar;
  beforeAll(async () => {
    xgrammar = await loadXGrammar();
  });

  it.each(["qwen3", "qwen3.5"] as const)("%s: at every step of 120 random calls over random schemas", async (format) => {
    const random = seededRandom(format === "qwen3" ? 31 : 32);
    const shapes = TokenShapes.for(VOCABULARY, WHITESPACE_LIMIT);
    const info = await xgrammar.TokenizerInfo.createTokenizerInfo(TEXTS, "raw", false, TEXTS.length, []);
    const compiler = await xgrammar.GrammarCompiler.createGrammarCompiler(info, false);
    let steps = 0;
    let refusals = 0;
    for (let set = 0; set < 20; set++) {
      const grammar = modelFormat(format).grammar(randomTools(set * 5 + (format === "qwen3" ? 3 : 4), 2, { extended: true, loose: set % 2 === 1 }));
      const compiled = await compiler.compileGrammar(buildCallGrammar(grammar).ebnf, "root");
      for (let walk = 0; walk < 6; walk++) {
        const matcher = await xgrammar.GrammarMatcher.createGrammarMatcher(compiled, undefined, true);
        const walker = callWalker(grammar);
        let prefix = "";
        for (let step = 0; step < 60 && !matcher.isTerminated(); step++) {
          const allowed = await matcher.getNextTokenBitmask();
          const refused = refusedByBounds(walker, allowed, shapes);
          const kept: number[] = [];
          for (let id = 0; id < TEXTS.length; id++) {
            if (!has(allowed, id)) continue;
            const walkerRefuses = !walker.clone().feed(encoder.encode(TEXTS[id]));
            expect(refused !== undefined && has(refused, id), `${JSON.stringify(TEXTS[id])} after ${JSON.stringify(prefix)}`).toBe(walkerRefuses);
            if (walkerRefuses) refusals++;
            else kept.push(id);
          }
          steps++;
          if (!kept.length) break;
          const id = kept[Math.floor(random() * kept.length)]!;
          expect(matcher.acceptToken(id)).toBe(true);
          walker.feed(encoder.encode(TEXTS[id]));
          prefix += TEXTS[id];
        }
        matcher.dispose();
      }
      compiled.dispose();
    }
    // The walks reached the bounds: some tokens were refused.
    expect(steps).toBeGreaterThan(2000);
    expect(refusals).toBeGreaterThan(100);
  }, 120_000);

  it("while the name is unknown, a token one tool's bound refuses and the other tools' keys refuse is refused (the sampled-calls test found it)", async () => {
    // Arguments before the name: one reading per tool. `note` is a key of `compare` only, so `":""` (the key closed, an empty string) breaks
    // `compare`'s minLength and is no key of `toggle`'s: every reading refuses it, though `toggle`'s own bounds never look at it.
    const grammar = modelFormat("qwen3").grammar([
      { name: "compare", description: "", inputSchema: { type: "object", properties: { note: { type: "string", minLength: 5 } }, required: ["note"], additionalProperties: false } },
      { name: "toggle", description: "", inputSchema: { type: "object", properties: { on: { type: "boolean" } }, additionalProperties: false } },
    ]);
    const walker = callWalker(grammar);
    for (const text of ['{"arguments": {"', "note"]) expect(walker.feed(encoder.encode(text))).toBe(true);
    const allowed = new Int32Array((TEXTS.length + 31) >> 5).fill(-1);
    const refused = refusedByBounds(walker, allowed, TokenShapes.for(VOCABULARY, WHITESPACE_LIMIT));
    const empty = TEXTS.indexOf('":""');
    expect(walker.clone().feed(encoder.encode('":""'))).toBe(false);
    expect(refused !== undefined && has(refused, empty)).toBe(true);
    // What a reading still allows stays allowed: `":` goes on in `compare`.
    expect(has(refused!, TEXTS.indexOf('": '))).toBe(false);
  });
});
