import { describe, expect, test } from "vitest";
import { ebnfLiteral, renameEbnfRules } from "./rename-ebnf-rules.js";
import { loadXGrammar } from "../load-xgrammar.js";

describe("renameEbnfRules", () => {
  test("prefixes rule names, never the text of literals or character classes", () => {
    const ebnf = String.raw`root ::= (("{" "\"root\"" ": " basic_string root_1 "}"))
basic_string ::= (("\"" [^\0-\x1f\"\\\r\n] basic_string)) (=([ \n\t]* [,}\]:]))
root_1 ::= ("" | ("root ::= [x]" basic_string))`;
    expect(renameEbnfRules(ebnf, "t0_")).toBe(String.raw`t0_root ::= (("{" "\"root\"" ": " t0_basic_string t0_root_1 "}"))
t0_basic_string ::= (("\"" [^\0-\x1f\"\\\r\n] t0_basic_string)) (=([ \n\t]* [,}\]:]))
t0_root_1 ::= ("" | ("root ::= [x]" t0_basic_string))`);
  });

  test("two renamed copies of xgrammar's own output compile together", async () => {
    const xgrammar = await loadXGrammar();
    const a = (await xgrammar.Grammar.fromJSONSchema(JSON.stringify({ type: "object", properties: { a: { type: "string" } } }), false, -1, [", ", ": "], true)).toString();
    const b = (await xgrammar.Grammar.fromJSONSchema(JSON.stringify({ type: "array", items: { type: "number" } }), false, -1, [", ", ": "], true)).toString();
    const joined = `root ::= x_root " " y_root\n${renameEbnfRules(a, "x_")}\n${renameEbnfRules(b, "y_")}`;
    const grammar = await xgrammar.Grammar.fromEBNF(joined);
    expect(await xgrammar.Testings.isGrammarAcceptString(grammar, '{"a": "q\\"r"} [1.5, -2]')).toBe(true);
    expect(await xgrammar.Testings.isGrammarAcceptString(grammar, '{"a": 1} [1.5, -2]')).toBe(false);
  });

  test("an unterminated literal is a SyntaxError that says where", () => {
    expect(() => renameEbnfRules('root ::= "abc', "p_")).toThrow(/Unterminated string literal in EBNF at 9/);
    expect(() => renameEbnfRules("root ::= [abc", "p_")).toThrow(/Unterminated character class/);
  });
});

describe("ebnfLiteral", () => {
  test("escapes quotes, backslashes and control characters; keeps other text", async () => {
    expect(ebnfLiteral('a"b\\c\nd\te\x01é')).toBe('"a\\"b\\\\c\\nd\\te\\x01é"');
    const xgrammar = await loadXGrammar();
    const text = 'say "hi"\\\n\t<tool_call> é';
    const grammar = await xgrammar.Grammar.fromEBNF(`root ::= ${ebnfLiteral(text)}`);
    expect(await xgrammar.Testings.isGrammarAcceptString(grammar, text)).toBe(true);
  });
});
