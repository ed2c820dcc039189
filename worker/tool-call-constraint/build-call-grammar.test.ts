import { afterEach, describe, expect, test, vi } from "vitest";
import { formatToolCall } from "../../models/test-models/format-tool-call.js";
import { formatXmlToolCall } from "../../models/test-models/format-xml-tool-call.js";
import type { ToolCallGrammar } from "../../models/model-format.js";
import { buildCallGrammar } from "./build-call-grammar.js";
import { loadXGrammar } from "./load-xgrammar.js";

const tools: ToolCallGrammar["tools"] = [
  {
    name: "add_to_cart",
    inputSchema: {
      type: "object",
      properties: { sku: { type: "string" }, quantity: { type: "integer", minimum: 1 }, gift: { type: "boolean" }, size: { type: "string", enum: ["S", "M", "L \"large\""] } },
      required: ["sku", "quantity"],
    },
  },
  { name: "place_order", inputSchema: { type: "object", properties: {} } },
  {
    name: "ship",
    inputSchema: {
      type: "object",
      properties: { address: { type: "object", properties: { city: { type: "string" }, lines: { type: "array", items: { type: "string" } } }, required: ["city"] }, tags: { type: "array", items: { type: "string", enum: ["a", "b"] } } },
      required: ["address"],
    },
  },
];

const call = (name: string, args: Record<string, unknown>) => ({ name, arguments: args });

/** What the format writes for `calls`, each without its `<tool_call>` opener (the grammar's span). */
const bodies = (write: (c: { name: string; arguments: Record<string, unknown> }) => string, calls: ReturnType<typeof call>[]) =>
  calls.map((c) => write(c).slice("<tool_call>".length));

const valid = [
  call("add_to_cart", { sku: "socks", quantity: 2 }),
  call("add_to_cart", { sku: 'a "quoted"\\ line\nand more', quantity: 10, gift: true, size: 'L "large"' }),
  call("add_to_cart", { sku: "x", quantity: 1, size: "M" }),
  call("place_order", {}),
  call("ship", { address: { city: "Zürich", lines: ["1 Main St", "Apt 2"] }, tags: ["a", "b"] }),
  call("ship", { address: { city: "Oslo" } }),
];
const invalid = [
  call("add_to_card", { sku: "socks", quantity: 2 }), // unknown name
  call("add_to_cart", { sku: "socks" }), // required quantity missing
  call("add_to_cart", { sku: "socks", quantity: "two" }), // wrong type
  call("add_to_cart", { sku: "socks", quantity: 0 }), // below minimum
  call("add_to_cart", { sku: "socks", quantity: 2, size: "XL" }), // not in the enum
  call("add_to_cart", { sku: "socks", quantity: 2, colour: "red" }), // undeclared property
  call("ship", { address: { lines: [] } }), // nested required missing
  call("ship", { address: { city: "Oslo" }, tags: ["c"] }), // array item outside the enum
];

async function accepts(ebnf: string, text: string): Promise<boolean> {
  const xgrammar = await loadXGrammar();
  const grammar = await xgrammar.Grammar.fromEBNF(ebnf);
  try {
    return await xgrammar.Testings.isGrammarAcceptString(grammar, text);
  } finally {
    grammar.dispose();
  }
}

describe.each([
  { syntax: "hermes-json" as const, write: formatToolCall },
  { syntax: "qwen-xml" as const, write: formatXmlToolCall },
])("buildCallGrammar ($syntax)", ({ syntax, write }) => {
  const grammar: ToolCallGrammar = { syntax, callOpen: "<tool_call>", callClose: "</tool_call>", tools };

  test("accepts exactly what the format writes for valid calls", async () => {
    const { ebnf, warnings } = await buildCallGrammar(grammar, await loadXGrammar());
    expect(warnings).toEqual([]);
    for (const body of bodies(write, valid)) expect(await accepts(ebnf, body), body).toBe(true);
  }, 60_000);

  test("rejects unknown names, missing required, wrong types, values outside enums and bounds, undeclared keys", async () => {
    const { ebnf } = await buildCallGrammar(grammar, await loadXGrammar());
    for (const body of bodies(write, invalid)) expect(await accepts(ebnf, body), body).toBe(false);
  }, 60_000);

  test("rejects layouts other than the canonical one (extra whitespace, no closer, a second call glued on)", async () => {
    const { ebnf } = await buildCallGrammar(grammar, await loadXGrammar());
    const [body] = bodies(write, [valid[0]!]);
    expect(await accepts(ebnf, body!.replace("\n", "\n "))).toBe(false);
    expect(await accepts(ebnf, body!.replace("</tool_call>", ""))).toBe(false);
    expect(await accepts(ebnf, `${body}${body}`)).toBe(false);
    expect(await accepts(ebnf, body!.replace(syntax === "hermes-json" ? ": " : ">\n", syntax === "hermes-json" ? ":" : ">"))).toBe(false);
  }, 60_000);
});

describe("buildCallGrammar: schemas it cannot express", () => {
  afterEach(() => vi.restoreAllMocks());
  const lookbehind = { type: "object", properties: { q: { type: "string", pattern: "(?<=a)b" }, n: { type: "integer" } }, required: ["q"] };
  const nested = { type: "object", properties: { filter: { type: "object", properties: { q: { type: "string", pattern: "(?<=a)b" } } }, n: { type: "integer" } }, required: ["n"] };

  test("hermes-json: that tool takes any JSON object, the others stay constrained, one warning names the tool and the keyword", async () => {
    const grammar: ToolCallGrammar = { syntax: "hermes-json", callOpen: "<tool_call>", callClose: "</tool_call>", tools: [{ name: "search", inputSchema: nested }, ...tools] };
    const { ebnf, warnings } = await buildCallGrammar(grammar, await loadXGrammar());
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^Tool "search": its input schema's "pattern" \(at properties\/filter\/properties\/q\)/);
    expect(await accepts(ebnf, formatToolCall(call("search", { anything: [1, { b: null }] })).slice(11))).toBe(true);
    expect(await accepts(ebnf, formatToolCall(call("search", [] as never)).slice(11))).toBe(false);
    expect(await accepts(ebnf, formatToolCall(invalid[2]!).slice(11))).toBe(false);
  }, 60_000);

  test("qwen-xml: only that parameter is held to text; the rest of the tool stays constrained", async () => {
    const grammar: ToolCallGrammar = { syntax: "qwen-xml", callOpen: "<tool_call>", callClose: "</tool_call>", tools: [{ name: "search", inputSchema: lookbehind }] };
    const { ebnf, warnings } = await buildCallGrammar(grammar, await loadXGrammar());
    expect(warnings).toEqual([expect.stringMatching(/^Tool "search": its input schema's "pattern" \(at properties\/q\)/)]);
    expect(await accepts(ebnf, formatXmlToolCall(call("search", { q: "anything", n: 3 })).slice(11))).toBe(true);
    expect(await accepts(ebnf, formatXmlToolCall(call("search", { q: "anything", n: "three" })).slice(11))).toBe(false);
    expect(await accepts(ebnf, formatXmlToolCall(call("search", { n: 3 })).slice(11))).toBe(false);
  }, 60_000);

  test("a recursive $ref is constrained, not a fallback", async () => {
    const tree = { type: "object", properties: { root: { $ref: "#/$defs/node" } }, required: ["root"], $defs: { node: { type: "object", properties: { v: { type: "integer" }, next: { $ref: "#/$defs/node" } }, required: ["v"] } } };
    for (const [syntax, write] of [["hermes-json", formatToolCall], ["qwen-xml", formatXmlToolCall]] as const) {
      const { ebnf, warnings } = await buildCallGrammar({ syntax, callOpen: "<tool_call>", callClose: "</tool_call>", tools: [{ name: "walk", inputSchema: tree }] }, await loadXGrammar());
      expect(warnings).toEqual([]);
      expect(await accepts(ebnf, write(call("walk", { root: { v: 1, next: { v: 2, next: { v: 3 } } } })).slice(11))).toBe(true);
      expect(await accepts(ebnf, write(call("walk", { root: { v: 1, next: { next: { v: 3 } } } })).slice(11))).toBe(false);
    }
  }, 60_000);

  test("no usable tool is a TypeError that says what to pass", async () => {
    await expect(buildCallGrammar({ syntax: "hermes-json", callOpen: "<tool_call>", callClose: "</tool_call>", tools: [] }, await loadXGrammar())).rejects.toThrow(TypeError);
    const result = buildCallGrammar({ syntax: "qwen-xml", callOpen: "<tool_call>", callClose: "</tool_call>", tools: [{ name: "bad name", inputSchema: {} }] }, await loadXGrammar());
    await expect(result).rejects.toThrow(/at least one tool/);
  }, 60_000);
});
