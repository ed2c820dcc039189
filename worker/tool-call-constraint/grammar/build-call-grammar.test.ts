import { beforeAll, describe, expect, test } from "vitest";
import { randomTools } from "../../../bench/constraint/random-json-schema.js";
import type { ToolCallGrammar } from "../../../models/model-format.js";
import { modelFormat } from "../../../models/model-formats.js";
import { formatToolCall } from "../../../models/test-models/format-tool-call.js";
import { formatXmlToolCall } from "../../../models/test-models/format-xml-tool-call.js";
import { PlannerGrammar } from "../budget/planner-grammar.js";
import { loadXGrammar, type XGrammar } from "../load-xgrammar.js";
import { HERMES_LAYOUTS, LAYOUT_TOOLS, XML_LAYOUTS } from "../test-fixtures/call-layouts.js";
import { buildCallGrammar } from "./build-call-grammar.js";

const tools: ToolCallGrammar["tools"] = [
  {
    name: "add_to_cart",
    inputSchema: {
      type: "object",
      properties: { sku: { type: "string" }, quantity: { type: "integer", minimum: 13, maximum: 120 }, price: { type: "number", minimum: 0.01 }, gift: { type: "boolean" }, size: { type: "string", enum: ["S", "M", 'L "large"'] } },
      required: ["sku", "quantity"],
      additionalProperties: false,
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
const valid = [
  call("add_to_cart", { sku: "socks", quantity: 13 }),
  call("add_to_cart", { sku: 'a "quoted"\\ line\nand more < less', quantity: 120, price: 0.01, gift: true, size: 'L "large"' }),
  call("add_to_cart", { sku: "x", quantity: 99, price: 12345.678, size: "M" }),
  call("place_order", {}),
  call("ship", { address: { city: "Zürich", lines: ["1 Main St", "Apt 2"] }, tags: ["a", "b"] }),
  call("ship", { address: { city: "Oslo" } }),
];
const invalid = [
  call("add_to_card", { sku: "socks", quantity: 20 }), // unknown name
  call("add_to_cart", { sku: "socks" }), // required quantity missing
  call("add_to_cart", { sku: "socks", quantity: "two" }), // wrong type
  call("add_to_cart", { sku: "socks", quantity: 12 }), // below minimum
  ...[121, 122, 129, 200].map((quantity) => call("add_to_cart", { sku: "socks", quantity })), // above maximum (xgrammar's own range rule took 121-129)
  call("add_to_cart", { sku: "socks", quantity: 20, price: 0.009 }), // below a fractional minimum
  call("add_to_cart", { sku: "socks", quantity: 20, size: "XL" }), // not in the enum
  call("add_to_cart", { sku: "socks", quantity: 20, colour: "red" }), // undeclared property where additionalProperties is false
  call("ship", { address: { lines: [] } }), // nested required missing
  call("ship", { address: { city: "Oslo" }, tags: ["c"] }), // array item outside the enum
];

describe.each([
  { syntax: "hermes-json" as const, write: formatToolCall, layouts: HERMES_LAYOUTS },
  { syntax: "qwen-xml" as const, write: formatXmlToolCall, layouts: XML_LAYOUTS },
])("buildCallGrammar ($syntax)", ({ syntax, write, layouts }) => {
  let xgrammar: XGrammar;
  beforeAll(async () => {
    xgrammar = await loadXGrammar();
  });
  const grammar: ToolCallGrammar = { syntax, callOpen: "<tool_call>", callClose: "</tool_call>", tools };
  const accepts = async (ebnf: string, body: string) => {
    const compiled = await xgrammar.Grammar.fromEBNF(ebnf);
    try {
      return await xgrammar.Testings.isGrammarAcceptString(compiled, body);
    } finally {
      compiled.dispose();
    }
  };
  /** Each call's body (after `<tool_call>`), one call per text. */
  const bodies = (text: string) => text.split("<tool_call>").slice(1).map((part) => part.slice(0, part.indexOf("</tool_call>") + "</tool_call>".length));

  test("accepts what the format writes for valid calls, and every layout its parser reads the same", async () => {
    const { ebnf, warnings } = buildCallGrammar(grammar);
    expect(warnings).toEqual([]);
    for (const { arguments: args, name } of valid) for (const body of bodies(write({ name, arguments: args }))) expect(await accepts(ebnf, body), body).toBe(true);
    const layoutGrammar = buildCallGrammar({ ...grammar, tools: LAYOUT_TOOLS });
    for (const layout of layouts) for (const body of bodies(layout)) expect(await accepts(layoutGrammar.ebnf, body), body).toBe(true);
  }, 60_000);

  test("rejects unknown names, missing required, wrong types, values outside enums and exact bounds, undeclared keys", async () => {
    const { ebnf } = buildCallGrammar(grammar);
    for (const { arguments: args, name } of invalid) for (const body of bodies(write({ name, arguments: args }))) expect(await accepts(ebnf, body), body).toBe(false);
  }, 60_000);

  test("rejects what no layout has: no closer, a second call glued inside, a key repeated after the name (xgrammar 0.1.27 took `A, B | B, A | A` wrong)", async () => {
    const { ebnf } = buildCallGrammar(grammar);
    const [body] = bodies(write(valid[3]!));
    expect(await accepts(ebnf, body!.replace("</tool_call>", ""))).toBe(false);
    expect(await accepts(ebnf, `${body}${body}`)).toBe(false);
    if (syntax === "hermes-json") expect(await accepts(ebnf, '{"arguments": {}, "name": "place_order", "arguments": {}}</tool_call>')).toBe(false);
  }, 60_000);

  test("the planner's reading parses, for random tool sets too", () => {
    for (const set of [tools, ...Array.from({ length: 10 }, (_, seed) => randomTools(seed, 3))]) {
      const { plannerEbnf } = buildCallGrammar({ ...grammar, tools: set });
      expect(() => PlannerGrammar.fromEbnf(plannerEbnf)).not.toThrow();
    }
  });
});

describe("buildCallGrammar: unlisted keys (JSON Schema: admitted unless additionalProperties is false)", () => {
  const loose = [
    { name: "get_weather", inputSchema: { type: "object", properties: {}, additionalProperties: true } },
    { name: "note", inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"], additionalProperties: { type: "string", maxLength: 4 } } },
    { name: "search", inputSchema: { type: "object", properties: { query: { type: "string" }, limit: { type: "integer" } } } },
  ];
  const accepts = async (syntax: "hermes-json" | "qwen-xml", text: string) => {
    const xgrammar = await loadXGrammar();
    const grammar = await xgrammar.Grammar.fromEBNF(buildCallGrammar({ syntax, callOpen: "<tool_call>", callClose: "</tool_call>", tools: loose }).ebnf);
    try {
      return await xgrammar.Testings.isGrammarAcceptString(grammar, text.slice("<tool_call>".length));
    } finally {
      grammar.dispose();
    }
  };

  test("Hermes JSON: unlisted keys anywhere among the listed ones, held to additionalProperties; a listed key only as itself", async () => {
    expect(await accepts("hermes-json", formatToolCall(call("get_weather", { city: "NYC" })))).toBe(true);
    expect(await accepts("hermes-json", formatToolCall(call("search", { units: { c: true }, query: "socks", page: 2, limit: 3, more: [1] })))).toBe(true);
    expect(await accepts("hermes-json", formatToolCall(call("note", { tag: "abc", text: "hi", sku: "x" })))).toBe(true);
    // additionalProperties' schema holds the value (a number is no string).
    expect(await accepts("hermes-json", formatToolCall(call("note", { text: "hi", count: 3 })))).toBe(false);
    // A listed key is never read as unlisted: `limit` must be an integer, and comes once.
    expect(await accepts("hermes-json", formatToolCall(call("search", { query: "socks", limit: "three" })))).toBe(false);
    expect(await accepts("hermes-json", '<tool_call>{"name": "search", "arguments": {"limit": 1, "query": "a", "limit": 2}}</tool_call>')).toBe(false);
  });

  test("Qwen3.5 XML: one unlisted text parameter, first (the parser reads a later one into the value before it)", async () => {
    expect(await accepts("qwen-xml", formatXmlToolCall(call("get_weather", { city: "NYC" })))).toBe(true);
    expect(await accepts("qwen-xml", formatXmlToolCall(call("note", { tag: "abc", text: "hi" })))).toBe(true);
    expect(await accepts("qwen-xml", formatXmlToolCall(call("note", { text: "hi", tag: "abc" })))).toBe(false);
    expect(await accepts("qwen-xml", formatXmlToolCall(call("get_weather", { city: "NYC", zip: "10001" })))).toBe(false);
    // A listed key is never the unlisted one.
    expect(await accepts("qwen-xml", "<tool_call>\n<function=note>\n<parameter=text>\na\n</parameter>\n<parameter=text>\nb\n</parameter>\n</function>\n</tool_call>")).toBe(false);
  });
});

describe("buildCallGrammar: an enum member holding the format's closer", () => {
  // The bounds refuse a closer in a string only at its last byte, when a raw literal already chose it (seed 27 of the browser tier's sampled calls).
  const tools = [{ name: "tag", inputSchema: { type: "object", properties: { v: { enum: ["x</tool_call>y", "<b>bold</b>"] }, w: { type: "array", items: { enum: ["x</tool_call>y", "a</parameter>b"] } } }, required: ["v"], additionalProperties: false } }];
  const accepts = async (syntax: "hermes-json" | "qwen-xml", body: string) => {
    const xgrammar = await loadXGrammar();
    const grammar = await xgrammar.Grammar.fromEBNF(buildCallGrammar({ syntax, callOpen: "<tool_call>", callClose: "</tool_call>", tools }).ebnf);
    try {
      return await xgrammar.Testings.isGrammarAcceptString(grammar, body);
    } finally {
      grammar.dispose();
    }
  };

  test("Hermes JSON: one holding `</tool_call>` is written with `<\\/` only; a member without it both ways", async () => {
    expect(await accepts("hermes-json", '{"name": "tag", "arguments": {"v": "x<\\/tool_call>y"}}</tool_call>')).toBe(true);
    expect(await accepts("hermes-json", '{"name": "tag", "arguments": {"v": "x</tool_call>y"}}</tool_call>')).toBe(false);
    expect(await accepts("hermes-json", '{"name": "tag", "arguments": {"v": "<b>bold</b>"}}</tool_call>')).toBe(true);
    expect(await accepts("hermes-json", '{"name": "tag", "arguments": {"v": "<b>bold<\\/b>"}}</tool_call>')).toBe(true);
  });

  test("Qwen3.5 XML: in a JSON value only `</parameter>` ends it, so only that member loses its raw form", async () => {
    const call = (w: string) => `\n<function=tag>\n<parameter=v>\n<b>bold</b>\n</parameter>\n<parameter=w>\n${w}\n</parameter>\n</function>\n</tool_call>`;
    expect(await accepts("qwen-xml", call('["x</tool_call>y", "a<\\/parameter>b"]'))).toBe(true);
    expect(await accepts("qwen-xml", call('["x<\\/tool_call>y"]'))).toBe(true);
    expect(await accepts("qwen-xml", call('["a</parameter>b"]'))).toBe(false);
  });
});

describe("buildCallGrammar: what it does not enforce, and recursion", () => {
  test("a keyword it does not enforce is named in one warning per tool (the rest of the tool stays constrained), never silently loose", () => {
    const schema = { type: "object", properties: { q: { type: "string", pattern: "(?<=a)b" }, n: { type: "integer", multipleOf: 3 }, tags: { type: "array", items: { type: "string" }, uniqueItems: true } } };
    for (const syntax of ["hermes-json", "qwen-xml"] as const) {
      const { warnings } = buildCallGrammar({ syntax, callOpen: "<tool_call>", callClose: "</tool_call>", tools: [{ name: "search", inputSchema: schema }, ...tools] });
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(/^Tool "search": its input schema's "pattern" \(at properties\/q\), "multipleOf" \(at properties\/n\), "uniqueItems" \(at properties\/tags\) cannot be enforced/);
    }
  });

  test("a recursive $ref is constrained", async () => {
    const xgrammar = await loadXGrammar();
    const tree = { type: "object", properties: { root: { $ref: "#/$defs/node" } }, required: ["root"], $defs: { node: { type: "object", properties: { v: { type: "integer" }, next: { $ref: "#/$defs/node" } }, required: ["v"] } } };
    for (const [syntax, write] of [["hermes-json", formatToolCall], ["qwen-xml", formatXmlToolCall]] as const) {
      const { ebnf, warnings } = buildCallGrammar({ syntax, callOpen: "<tool_call>", callClose: "</tool_call>", tools: [{ name: "walk", inputSchema: tree }] });
      expect(warnings).toEqual([]);
      const grammar = await xgrammar.Grammar.fromEBNF(ebnf);
      expect(await xgrammar.Testings.isGrammarAcceptString(grammar, write(call("walk", { root: { v: 1, next: { v: 2, next: { v: 3 } } } })).slice(11))).toBe(true);
      expect(await xgrammar.Testings.isGrammarAcceptString(grammar, write(call("walk", { root: { v: 1, next: { next: { v: 3 } } } })).slice(11))).toBe(false);
      grammar.dispose();
    }
  });

  test("no usable tool is a TypeError that says what to pass", () => {
    expect(() => buildCallGrammar({ syntax: "hermes-json", callOpen: "<tool_call>", callClose: "</tool_call>", tools: [] })).toThrow(TypeError);
    expect(() => buildCallGrammar({ syntax: "qwen-xml", callOpen: "<tool_call>", callClose: "</tool_call>", tools: [{ name: "bad name", inputSchema: {} }] })).toThrow(/at least one tool/);
  });

  test("a tool set of the format module compiles for both formats (the grammar `modelFormat` describes)", () => {
    for (const format of ["qwen3", "qwen3.5"] as const) expect(buildCallGrammar(modelFormat(format).grammar(LAYOUT_TOOLS)).ebnf).toContain("root ::=");
  });
});

describe("buildCallGrammar: keywords read as JSON Schema reads them", () => {
  const accepts = async (inputSchema: Record<string, unknown>, args: Record<string, unknown>) => {
    const xgrammar = await loadXGrammar();
    const grammar = await xgrammar.Grammar.fromEBNF(buildCallGrammar({ syntax: "hermes-json", callOpen: "<tool_call>", callClose: "</tool_call>", tools: [{ name: "t", inputSchema }] }).ebnf);
    try {
      return await xgrammar.Testings.isGrammarAcceptString(grammar, formatToolCall(call("t", args)).slice("<tool_call>".length));
    } finally {
      grammar.dispose();
    }
  };

  test("a keyword implies no type: `{ minimum: 0 }` admits a string, and still holds a number", async () => {
    const schema = { type: "object", properties: { v: { minimum: 0 } }, additionalProperties: false };
    expect(await accepts(schema, { v: "text" })).toBe(true);
    expect(await accepts(schema, { v: 3 })).toBe(true);
    expect(await accepts(schema, { v: -1 })).toBe(false);
  });

  test("prefixItems: each its own schema, `items` the rest (none where false)", async () => {
    const schema = { type: "object", properties: { p: { type: "array", prefixItems: [{ type: "string" }, { type: "integer" }], items: { type: "boolean" } }, q: { type: "array", prefixItems: [{ type: "integer" }], items: false } }, additionalProperties: false };
    expect(await accepts(schema, { p: ["a", 1, true, false], q: [2] })).toBe(true);
    expect(await accepts(schema, { p: ["a"], q: [] })).toBe(true);
    expect(await accepts(schema, { p: [1] })).toBe(false);
    expect(await accepts(schema, { p: ["a", 1, 2] })).toBe(false);
    expect(await accepts(schema, { q: [1, 2] })).toBe(false);
  });

  test("a $ref's properties and its siblings' are both read (either's additionalProperties: false keeps the other's keys)", async () => {
    const schema = { type: "object", properties: { o: { $ref: "#/$defs/base", properties: { b: { type: "integer" } } } }, $defs: { base: { type: "object", properties: { a: { type: "string" } }, additionalProperties: false } } };
    expect(await accepts(schema, { o: { a: "x" } })).toBe(true);
    expect(await accepts(schema, { o: { a: 1 } })).toBe(false);
  });
});
