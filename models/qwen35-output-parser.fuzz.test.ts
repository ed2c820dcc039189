/**
 * Fuzzing the Qwen3.5 (XML calls) output parser with hostile but realistic
 * model text: well-formed and broken calls, typed values (JSON, Python
 * literals, numbers), tag look-alikes inside values, unclosed and stray tags,
 * thinking on and off, unicode, every newline, huge tokens and deep nesting,
 * streamed in any chunks. FUZZ_RUNS cases each (10,000 here, 100,000 in
 * `npm run fuzz`).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { chunkings, fuzzProperty, fuzzTimeout, splitText } from "../runtime/test-support/fuzz-property.js";
import { deepNesting, hostileMix, hostileWord, hugeToken, newline } from "../runtime/test-support/hostile-text.js";
import type { ModelOutputEvent } from "./qwen-output-parser.js";
import { Qwen35OutputParser, type Qwen35ParserOptions } from "./qwen35-output-parser.js";

const TAGS = ["<think>", "</think>", "<tool_call>", "</tool_call>", "<function=", "</function>", "<parameter=", "</parameter>"];

const properties: Record<string, Record<string, unknown>> = {
  city: { type: "string" },
  days: { type: "integer" },
  ratio: { type: "number" },
  flag: { type: "boolean" },
  opts: { type: "object" },
  tags: { type: "array" },
  note: { anyOf: [{ type: "string" }, { type: "null" }] },
  limit: { type: ["integer", "null"] },
  constructor: { type: "object" },
};
// `__proto__` as a real key (in an object literal it would set the prototype instead).
Object.defineProperty(properties, "__proto__", { value: { type: "string" }, enumerable: true, writable: true, configurable: true });

const tools: Qwen35ParserOptions["tools"] = [
  { name: "get_weather", inputSchema: { type: "object", properties } },
  { name: "write_file", inputSchema: { type: "object", properties: { path: { type: "string" }, content: { type: "string" } } } },
];

export function parseQwen35(chunks: readonly string[], thinking: boolean): ModelOutputEvent[] {
  const parser = new Qwen35OutputParser({ tools, thinking });
  const events: ModelOutputEvent[] = [];
  for (const event of [...chunks.flatMap((chunk) => parser.push(chunk)), ...parser.end()]) {
    const last = events.at(-1);
    if (event.type === "text-delta" && last?.type === "text-delta") events[events.length - 1] = { type: "text-delta", delta: last.delta + event.delta };
    else events.push(event);
  }
  return events;
}

const key = fc.constantFrom("city", "days", "ratio", "flag", "opts", "tags", "note", "limit", "path", "content", "unknown", "__proto__", "constructor", "");
const value = fc.oneof(
  { weight: 20, arbitrary: hostileWord },
  fc.jsonValue({ maxDepth: 3 }).map((json) => JSON.stringify(json)),
  { weight: 10, arbitrary: fc.constantFrom("None", "True", "False", "null", "42", "-1.5e3", "NaN", "{'a': 1}", "[1, 'x']", "1_000") },
  // Look-alikes inside a value.
  { weight: 10, arbitrary: fc.constantFrom("</parameter>", "<parameter=city>", "</function>", "</tool_call>", "<tool_call>", "a</parameter>b", "<parameter=x>y</parameter>") },
  { weight: 1, arbitrary: fc.oneof(hugeToken, deepNesting) },
);
const parameter = fc
  .tuple(key, value, newline, fc.boolean())
  .map(([name, text, end, closed]) => `<parameter=${name}>${end}${text}${end}${closed ? "</parameter>" : ""}${end}`);
const functionName = fc.constantFrom("get_weather", "write_file", "unknown_tool", "", "a b", "{{ tc.name }}", "__proto__");
const call = fc
  .tuple(functionName, fc.array(parameter, { maxLength: 5 }), newline, fc.constantFrom("full", "no-function-close", "no-call-close", "bare"))
  .map(([name, parameters, end, shape]) => {
    const inner = `<function=${name}>${end}${parameters.join("")}`;
    if (shape === "bare") return `<tool_call>${end}${parameters.join("")}</tool_call>`;
    return `<tool_call>${end}${inner}${shape === "no-function-close" ? "" : `</function>${end}`}${shape === "no-call-close" ? "" : "</tool_call>"}`;
  });
const piece = fc.oneof(
  { weight: 4, arbitrary: call },
  { weight: 2, arbitrary: fc.tuple(hostileWord, newline).map(([text, end]) => `<think>${end}${text}${end}</think>${end}`) },
  { weight: 4, arbitrary: fc.array(hostileWord, { maxLength: 6 }).map((words) => words.join(" ")) },
  { weight: 1, arbitrary: parameter },
);
const output = hostileMix(piece, TAGS, 24);

/** A well-formed call to get_weather with string-typed keys, and what it must give. */
const wellFormed = fc
  .uniqueArray(fc.tuple(fc.constantFrom("city", "note", "__proto__"), fc.stringMatching(/^[a-zA-Z0-9 é日😀.,!?-]{1,20}$/)), { selector: ([name]) => name, maxLength: 3 })
  .map((pairs) => ({
    text: `<tool_call>\n<function=get_weather>\n${pairs.map(([name, text]) => `<parameter=${name}>\n${text}\n</parameter>\n`).join("")}</function>\n</tool_call>`,
    keys: pairs.map(([name]) => name),
    values: pairs.map(([, text]) => text),
  }));

describe("fuzz: the Qwen3.5 output parser", () => {
  it(
    "no throw, no case over 100 ms, the same events for any chunking (thinking on and off), calls only from <tool_call>, no tag left in text",
    () => {
      fuzzProperty("qwen35-output-parser", fc.tuple(output, chunkings, fc.boolean()), ([text, cuts, thinking]) => {
        const whole = parseQwen35([text], thinking);
        for (const offsets of cuts) expect(parseQwen35(splitText(text, offsets), thinking)).toEqual(whole);
        if (text.length <= 400) expect(parseQwen35([...text], thinking)).toEqual(whole);
        const calls = whole.filter((event) => event.type === "tool-call" || event.type === "tool-call-invalid").length;
        expect(calls).toBeLessThanOrEqual(text.split("<tool_call>").length - 1);
        // No reasoning or call markup reaches the text, whatever the order of the tags.
        for (const event of whole) if (event.type === "text-delta") for (const tag of ["<think>", "</think>", "<tool_call>", "</tool_call>"]) expect(event.delta).not.toContain(tag);
      });
    },
    fuzzTimeout(),
  );

  it("keeps every parameter of a well-formed call as its own key, __proto__ included", () => {
    fc.assert(
      fc.property(wellFormed, chunkings, ({ text, keys, values }, cuts) => {
        for (const chunks of [[text], ...cuts.map((offsets) => splitText(text, offsets))]) {
          const [event, ...rest] = parseQwen35(chunks, false);
          expect(rest).toEqual([]);
          expect(event?.type).toBe("tool-call");
          const input = (event as { input: Record<string, unknown> }).input;
          expect(Object.getPrototypeOf(input)).toBe(Object.prototype);
          expect(Object.keys(input)).toEqual(keys);
          expect(keys.map((name) => Object.getOwnPropertyDescriptor(input, name)?.value)).toEqual(values);
        }
      }),
      { numRuns: 2_000 },
    );
  });
});
