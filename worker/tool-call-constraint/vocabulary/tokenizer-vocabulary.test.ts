import { dirname } from "node:path";
import { AutoTokenizer, env } from "@huggingface/transformers";
import { beforeAll, describe, expect, it } from "vitest";
import { ensureTestModel, tinyModel } from "../../../models/test-models/index.js";
import { buildCallGrammar } from "../grammar/build-call-grammar.js";
import { loadXGrammar, type XGrammar } from "../load-xgrammar.js";
import { fromByteLevel } from "./byte-level-alphabet.js";
import { readVocabulary, type TokenizerJson, type Vocabulary } from "./tokenizer-vocabulary.js";
import { XGrammarTokenizer } from "./xgrammar-tokenizer.js";

// The real Qwen tokenizer (the tiny test model's), xgrammar's table over it, and matchers fed its token ids.
describe("the vocabulary and compiled call grammars (Qwen's tokenizer)", () => {
  let xgrammar: XGrammar;
  let vocabulary: Vocabulary;
  let table: XGrammarTokenizer;
  let encode: (text: string) => number[];

  beforeAll(async () => {
    const tiny = await ensureTestModel(tinyModel());
    env.allowLocalModels = true;
    env.allowRemoteModels = false;
    env.localModelPath = `${dirname(tiny.folder)}/`;
    const tokenizer = (await AutoTokenizer.from_pretrained("tiny", { local_files_only: true })) as unknown as { _tokenizerJSON: TokenizerJson; encode(text: string, options: object): number[] };
    encode = (text) => tokenizer.encode(text, { add_special_tokens: false });
    xgrammar = await loadXGrammar();
    vocabulary = readVocabulary(tokenizer._tokenizerJSON, { vocabSize: 151936, stopIds: [151645] });
    table = await XGrammarTokenizer.create(xgrammar, vocabulary);
  }, 120_000);

  const accepts = async (ebnf: string, text: string, ids = encode(text)) => {
    const compiled = await table.compiler.compileGrammar(ebnf, "root");
    const matcher = await xgrammar.GrammarMatcher.createGrammarMatcher(compiled, undefined, true);
    try {
      return ids.every((id) => matcher.acceptToken(id)) && matcher.isTerminated();
    } finally {
      matcher.dispose();
      compiled.dispose();
    }
  };

  it("writes each token as the tokenizer does, added ones too; special ones and ids past the vocabulary are empty", () => {
    const { encoded } = vocabulary;
    expect(new TextDecoder().decode(fromByteLevel(encoded[151657]!))).toBe("<tool_call>");
    expect(encoded[151645]).toBe("");
    expect(encoded[151935]).toBe("");
    expect(new TextDecoder().decode(fromByteLevel(encoded[encode(" ü")[0]!]!))).toBe(" ü");
  });

  it("a compiled grammar takes an enum member with ï before a hex letter, and not the character xgrammar's printout would make of it", async () => {
    const tools = [{ name: "pick", inputSchema: { type: "object", properties: { v: { type: "string", enum: ["ünïcode ✓", "x"] } }, required: ["v"] } }];
    for (const syntax of ["hermes-json", "qwen-xml"] as const) {
      const { ebnf } = buildCallGrammar({ syntax, callOpen: "<tool_call>", callClose: "</tool_call>", tools });
      const body = (member: string) => (syntax === "hermes-json" ? `\n{"name": "pick", "arguments": {"v": "${member}"}}\n</tool_call>` : `\n<function=pick>\n<parameter=v>\n${member}\n</parameter>\n</function>\n</tool_call>`);
      expect(await accepts(ebnf, body("ünïcode ✓"))).toBe(true);
      expect(await accepts(ebnf, body("ün\u0efcode ✓"))).toBe(false);
    }
  }, 60_000);

  it("compiled for the tokenizer: one-sided and fractional bounds exact, exponents at most two digits, no raw control character in a string", async () => {
    const tools = [{ name: "count", inputSchema: { type: "object", properties: { n: { type: "integer", minimum: 4 }, m: { type: "integer", maximum: 4 }, x: { type: "number" }, p: { type: "number", minimum: 0.01 }, t: { type: "string" } }, required: ["n", "m", "x", "p", "t"] } }];
    const { ebnf } = buildCallGrammar({ syntax: "hermes-json", callOpen: "<tool_call>", callClose: "</tool_call>", tools });
    const call = (n: string, m: string, x: string, p = "0.01", t = "a<b") => `\n{"name": "count", "arguments": {"n": ${n}, "m": ${m}, "x": ${x}, "p": ${p}, "t": "${t}"}}\n</tool_call>`;
    expect(await accepts(ebnf, call("4", "4", "1e99"))).toBe(true);
    expect(await accepts(ebnf, call("2", "4", "1"))).toBe(false);
    expect(await accepts(ebnf, call("40", "17", "1"))).toBe(false);
    expect(await accepts(ebnf, call("40", "-17", "1e999"))).toBe(false);
    expect(await accepts(ebnf, call("4", "4", "1", "0.009"))).toBe(false);
    expect(await accepts(ebnf, call("4", "4", "1", "0G01"))).toBe(false);
    expect(await accepts(ebnf, call("4", "4", "1", "0.01", "a\tb"))).toBe(false);
  }, 60_000);

  it("the closer is one added token inside the call, and the end of turn is never allowed before it", async () => {
    const tools = [{ name: "go", inputSchema: { type: "object", properties: {} } }];
    const { ebnf } = buildCallGrammar({ syntax: "hermes-json", callOpen: "<tool_call>", callClose: "</tool_call>", tools });
    const ids = encode('\n{"name": "go", "arguments": {}}\n</tool_call>');
    expect(ids.at(-1)).toBe(151658);
    expect(await accepts(ebnf, "", ids)).toBe(true);
    expect(await accepts(ebnf, "", [...ids.slice(0, -1), 151645])).toBe(false);
  }, 60_000);

  it("keeps compiled grammars by tool set: a second compile of the same tools is the first", async () => {
    const grammar = { syntax: "qwen-xml" as const, callOpen: "<tool_call>", callClose: "</tool_call>", tools: [{ name: "go", inputSchema: { type: "object", properties: { page: { type: "string" } } } }] };
    const first = await table.compile(grammar);
    expect(await table.compile({ ...grammar, tools: [...grammar.tools] })).toBe(first);
  }, 60_000);
});
