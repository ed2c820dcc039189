import { dirname } from "node:path";
import { AutoTokenizer, env } from "@huggingface/transformers";
import { beforeAll, describe, expect, it } from "vitest";
import { ensureTestModel, tinyModel } from "../../models/test-models/index.js";
import { buildCallGrammar } from "./build-call-grammar.js";
import { loadXGrammar, type XGrammar } from "./load-xgrammar.js";
import { buildTokenizerTable, readVocabulary, type TokenizerJson, type TokenizerTable } from "./tokenizer-table.js";

// The real Qwen tokenizer (the tiny test model's), xgrammar's table over it, and matchers fed its token ids.
describe("the tokenizer table and compiled call grammars (Qwen's tokenizer)", () => {
  let xgrammar: XGrammar;
  let table: TokenizerTable;
  let encode: (text: string) => number[];

  beforeAll(async () => {
    const tiny = await ensureTestModel(tinyModel());
    env.allowLocalModels = true;
    env.allowRemoteModels = false;
    env.localModelPath = `${dirname(tiny.folder)}/`;
    const tokenizer = (await AutoTokenizer.from_pretrained("tiny", { local_files_only: true })) as unknown as { _tokenizerJSON: TokenizerJson; encode(text: string, options: object): number[] };
    encode = (text) => tokenizer.encode(text, { add_special_tokens: false });
    xgrammar = await loadXGrammar();
    table = await buildTokenizerTable(xgrammar, readVocabulary(tokenizer._tokenizerJSON, { vocabSize: 151936, stopIds: [151645] }));
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

  it("reads added tokens as text and special ones as nothing; ids past the vocabulary are empty", () => {
    const { texts, encoded } = table.vocabulary;
    expect(texts[151657]).toBe("<tool_call>");
    expect(texts[151645]).toBe("");
    expect(encoded[151645]).toBe("");
    expect(texts[151935]).toBe("");
  });

  it("a compiled grammar takes an enum member with ï before a hex letter, and not the character xgrammar's printout would make of it", async () => {
    const tools = [{ name: "pick", inputSchema: { type: "object", properties: { v: { type: "string", enum: ["ünïcode ✓", "x"] } }, required: ["v"] } }];
    for (const syntax of ["hermes-json", "qwen-xml"] as const) {
      const { ebnf } = await buildCallGrammar({ syntax, callOpen: "<tool_call>", callClose: "</tool_call>", tools }, xgrammar);
      const body = (member: string) => (syntax === "hermes-json" ? `\n{"name": "pick", "arguments": {"v": "${member}"}}\n</tool_call>` : `\n<function=pick>\n<parameter=v>\n${member}\n</parameter>\n</function>\n</tool_call>`);
      expect(await accepts(ebnf, body("ünïcode ✓"))).toBe(true);
      expect(await accepts(ebnf, body("ün\u0efcode ✓"))).toBe(false);
    }
  }, 60_000);

  it("holds one-sided integer bounds and refuses three-digit exponents", async () => {
    const tools = [{ name: "count", inputSchema: { type: "object", properties: { n: { type: "integer", minimum: 4 }, m: { type: "integer", maximum: 4 }, x: { type: "number" } }, required: ["n", "m", "x"] } }];
    const { ebnf } = await buildCallGrammar({ syntax: "hermes-json", callOpen: "<tool_call>", callClose: "</tool_call>", tools }, xgrammar);
    const call = (n: string, m: string, x: string) => `\n{"name": "count", "arguments": {"n": ${n}, "m": ${m}, "x": ${x}}}\n</tool_call>`;
    expect(await accepts(ebnf, call("4", "4", "1e99"))).toBe(true);
    expect(await accepts(ebnf, call("2", "4", "1"))).toBe(false);
    expect(await accepts(ebnf, call("40", "17", "1"))).toBe(false);
    expect(await accepts(ebnf, call("40", "-17", "1e999"))).toBe(false);
  }, 60_000);

  it("a string with a length bound takes no raw control character (xgrammar's own class lets a tab through)", async () => {
    const tools = [{ name: "note", inputSchema: { type: "object", properties: { text: { type: "string", maxLength: 8 } }, required: ["text"] } }];
    const { ebnf } = await buildCallGrammar({ syntax: "hermes-json", callOpen: "<tool_call>", callClose: "</tool_call>", tools }, xgrammar);
    const call = (text: string) => `\n{"name": "note", "arguments": {"text": "${text}"}}\n</tool_call>`;
    expect(await accepts(ebnf, call("a b"))).toBe(true);
    expect(await accepts(ebnf, call("a\tb"))).toBe(false);
    expect(await accepts(ebnf, call("a<b"))).toBe(false);
  }, 60_000);

  it("the closer is one added token inside the call, and the end of turn is never allowed before it", async () => {
    const tools = [{ name: "go", inputSchema: { type: "object", properties: {} } }];
    const { ebnf } = await buildCallGrammar({ syntax: "hermes-json", callOpen: "<tool_call>", callClose: "</tool_call>", tools }, xgrammar);
    const ids = encode('\n{"name": "go", "arguments": {}}\n</tool_call>');
    expect(ids.at(-1)).toBe(151658);
    expect(await accepts(ebnf, "", ids)).toBe(true);
    expect(await accepts(ebnf, "", [...ids.slice(0, -1), 151645])).toBe(false);
  }, 60_000);
});
