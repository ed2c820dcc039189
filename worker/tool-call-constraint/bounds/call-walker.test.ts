import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { convertParameterValue } from "../../../models/qwen35-parameter-value.js";
import { callWalker } from "./call-walker.js";
import { WHITESPACE_LIMIT } from "./json-walker.js";

const encoder = new TextEncoder();
/** Whether the walker reads all of `body` (a call's text after `<tool_call>`) within its bounds. */
const reads = (tools: { name: string; inputSchema: Record<string, unknown> }[], syntax: "hermes-json" | "qwen-xml", body: string) =>
  callWalker({ syntax, tools, callClose: "</tool_call>" }).feed(encoder.encode(body));

describe("callWalker: the bounds the EBNF leaves out, counted as the parsers read them", () => {
  const text = (schema: Record<string, unknown>) => [{ name: "f", inputSchema: { type: "object", properties: { t: { type: "string", ...schema }, u: { type: "string" } }, required: ["t"] } }];
  const xml = (raw: string) => `\n<function=f>\n<parameter=t>${raw}</parameter>\n</function>\n</tool_call>`;
  const hermes = (json: string) => `\n{"name": "f", "arguments": {"t": ${json}}}\n</tool_call>`;

  it("a Qwen3.5 text value's length is what the parser reads: one leading and one trailing newline dropped, in characters (property)", () => {
    const raw = fc.array(fc.constantFrom("a", "\n", "<", "/", "p", ">", "ü", "😀", " ", "</param", "<b>"), { maxLength: 12 }).map((parts) => parts.join(""));
    fc.assert(
      fc.property(raw, (value) => {
        fc.pre(!value.includes("</parameter>") && !/\n<parameter=/.test(value) && !value.startsWith("<parameter="));
        const length = [...(convertParameterValue(value, { type: "string" }) as string)].length;
        expect(reads(text({ minLength: length, maxLength: length }), "qwen-xml", xml(value)), JSON.stringify(value)).toBe(true);
        if (length > 0) expect(reads(text({ maxLength: length - 1 }), "qwen-xml", xml(value)), JSON.stringify(value)).toBe(false);
        expect(reads(text({ minLength: length + 1 }), "qwen-xml", xml(value)), JSON.stringify(value)).toBe(false);
      }),
      { numRuns: 500 },
    );
  });

  it("a JSON string's length is JSON Schema's: characters after escapes are read (property)", () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom("a", "\n", '"', "\\", "ü", "😀", "\t", "/", "<") , maxLength: 12 }), (value) => {
        const length = [...value].length;
        const json = JSON.stringify(value);
        expect(reads(text({ minLength: length, maxLength: length }), "hermes-json", hermes(json)), json).toBe(true);
        if (length > 0) expect(reads(text({ maxLength: length - 1 }), "hermes-json", hermes(json))).toBe(false);
        expect(reads(text({ minLength: length + 1 }), "hermes-json", hermes(json))).toBe(false);
      }),
      { numRuns: 500 },
    );
  });

  it("caps a whitespace run between tokens (never inside a string or a text value)", () => {
    const tools = text({});
    const run = (count: number) => " ".repeat(count);
    expect(reads(tools, "hermes-json", `${run(WHITESPACE_LIMIT)}{"name": "f", "arguments": {"t": "${run(100)}"}}`)).toBe(true);
    expect(reads(tools, "hermes-json", `${run(WHITESPACE_LIMIT + 1)}{"name": "f"`)).toBe(false);
    expect(reads(tools, "qwen-xml", xml(run(100)))).toBe(true);
    expect(reads(tools, "qwen-xml", `\n<function=f>${run(WHITESPACE_LIMIT + 1)}<parameter=t>`)).toBe(false);
    // After a JSON value in Qwen3.5's tags too.
    const object = [{ name: "f", inputSchema: { type: "object", properties: { o: { type: "object" } } } }];
    expect(reads(object, "qwen-xml", `\n<function=f>\n<parameter=o>\n{}${run(WHITESPACE_LIMIT)}</parameter>`)).toBe(true);
    expect(reads(object, "qwen-xml", `\n<function=f>\n<parameter=o>\n{}${run(WHITESPACE_LIMIT + 1)}</parameter>`)).toBe(false);
  });

  it("counts an array's items against minItems and maxItems", () => {
    const tools = [{ name: "f", inputSchema: { type: "object", properties: { a: { type: "array", items: { type: "integer" }, minItems: 2, maxItems: 3 } } } }];
    const call = (items: string) => `{"name": "f", "arguments": {"a": [${items}]}}`;
    expect(reads(tools, "hermes-json", call("1, 2"))).toBe(true);
    expect(reads(tools, "hermes-json", call("1, 2, 3"))).toBe(true);
    expect(reads(tools, "hermes-json", call("1, 2, 3, 4"))).toBe(false);
    expect(reads(tools, "hermes-json", call("1"))).toBe(false);
    expect(reads(tools, "qwen-xml", "\n<function=f>\n<parameter=a>\n[1]\n</parameter>")).toBe(false);
  });

  it("keeps out what would end the call or the value for the parser: </tool_call> in a Hermes string, a known <parameter=KEY> at a line start in a text value", () => {
    expect(reads(text({}), "hermes-json", hermes('"a </tool_call> b"'))).toBe(false);
    expect(reads(text({}), "hermes-json", hermes('"a <\\/tool_call> b"'))).toBe(true);
    expect(reads(text({}), "qwen-xml", xml("\nabc\n<parameter=u>\n"))).toBe(false);
    expect(reads(text({}), "qwen-xml", xml("\nabc <parameter=u>\n<parameter=other>\n"))).toBe(true);
  });

  it("with the arguments before the name, follows every tool until the name tells which (each held to its own bounds)", () => {
    const tools = [
      { name: "short", inputSchema: { type: "object", properties: { t: { type: "string", maxLength: 2 } } } },
      { name: "long", inputSchema: { type: "object", properties: { t: { type: "string", minLength: 5 } } } },
    ];
    expect(reads(tools, "hermes-json", '{"arguments": {"t": "abcdef"}, "name": "long"}')).toBe(true);
    expect(reads(tools, "hermes-json", '{"arguments": {"t": "ab"}, "name": "short"}')).toBe(true);
    expect(reads(tools, "hermes-json", '{"arguments": {"t": "abcdef"}, "name": "short"}')).toBe(false);
    expect(reads(tools, "hermes-json", '{"arguments": {"t": "abc"}, "name": "')).toBe(false);
  });
});
