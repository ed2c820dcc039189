import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ModelOutputEvent } from "./qwen-output-parser.js";
import { Qwen35OutputParser, type Qwen35ParserOptions } from "./qwen35-output-parser.js";

const tools: Qwen35ParserOptions["tools"] = [
  {
    name: "get_weather",
    inputSchema: {
      type: "object",
      properties: {
        city: { type: "string" },
        days: { type: "integer" },
        ratio: { type: "number" },
        flag: { type: "boolean" },
        opts: { type: "object" },
        tags: { type: "array" },
        note: { anyOf: [{ type: "string" }, { type: "null" }] },
        limit: { type: ["integer", "null"] },
      },
    },
  },
  { name: "write_file", inputSchema: { type: "object", properties: { path: { type: "string" }, content: { type: "string" } } } },
];

/** Parses `output` fed in the given pieces; consecutive text deltas are merged. */
function parse(pieces: string[], options: Partial<Qwen35ParserOptions> = {}): ModelOutputEvent[] {
  const parser = new Qwen35OutputParser({ tools, ...options });
  const events = [...pieces.flatMap((piece) => parser.push(piece)), ...parser.end()];
  const merged: ModelOutputEvent[] = [];
  for (const event of events) {
    const last = merged.at(-1);
    if (event.type === "text-delta" && last?.type === "text-delta") merged[merged.length - 1] = { type: "text-delta", delta: last.delta + event.delta };
    else merged.push(event);
  }
  return merged;
}
const whole = (output: string, options?: Partial<Qwen35ParserOptions>) => parse([output], options);

const call = (name: string, parameters: [string, string][]) =>
  `<tool_call>\n<function=${name}>\n${parameters.map(([key, value]) => `<parameter=${key}>\n${value}\n</parameter>\n`).join("")}</function>\n</tool_call>`;

describe("Qwen35OutputParser", () => {
  it("types each value by the tool's schema", () => {
    // A key the schema does not know stays a string (and, as in vLLM, only a known key's tag ends the value before it).
    const output = call("get_weather", [
      ["extra", "42"],
      ["city", "Paris"],
      ["days", "2"],
      ["ratio", "2.0"],
      ["flag", "True"],
      ["opts", '{"unit": "c"}'],
      ["tags", "['a', 'b']"],
      ["note", "None"],
      ["limit", "null"],
    ]);
    expect(whole(output)).toEqual([
      { type: "tool-call", name: "get_weather", input: { city: "Paris", days: 2, ratio: 2, flag: true, opts: { unit: "c" }, tags: ["a", "b"], note: null, limit: null, extra: "42" } },
    ]);
  });

  it("keeps a string typed 'null' as the text null, and a number that is not one as text", () => {
    expect(whole(call("get_weather", [["city", "null"], ["days", "two"]]))).toEqual([{ type: "tool-call", name: "get_weather", input: { city: "null", days: "two" } }]);
  });

  it("keeps tag look-alikes inside a value: code with </parameter>, </function> and </tool_call> in it", () => {
    const code = 'const tag = "</parameter>";\n</function>\n</tool_call>\n<parameter=x>nested</parameter>\nend';
    expect(whole(call("write_file", [["path", "a.js"], ["content", code]]))).toEqual([{ type: "tool-call", name: "write_file", input: { path: "a.js", content: code } }]);
  });

  it("reads text before a call, several calls, and text after them", () => {
    const output = `Checking both.\n\n${call("get_weather", [["city", "Paris"]])}\n${call("get_weather", [["city", "Rome"]])}\nDone.`;
    expect(whole(output)).toEqual([
      { type: "text-delta", delta: "Checking both." },
      { type: "tool-call", name: "get_weather", input: { city: "Paris" } },
      { type: "tool-call", name: "get_weather", input: { city: "Rome" } },
      { type: "text-delta", delta: "Done." },
    ]);
  });

  it("ends reasoning at </think>, or at a <tool_call> that opens a function inside an unclosed <think>", () => {
    expect(whole("Need the weather.\n</think>\n\nSure.", { thinking: true })).toEqual([
      { type: "reasoning", text: "Need the weather." },
      { type: "text-delta", delta: "Sure." },
    ]);
    expect(whole(`I should call <tool_call> maybe.\nYes.\n${call("get_weather", [["city", "Oslo"]])}`, { thinking: true })).toEqual([
      { type: "reasoning", text: "I should call <tool_call> maybe.\nYes." },
      { type: "tool-call", name: "get_weather", input: { city: "Oslo" } },
    ]);
    expect(whole("Still thinking when cut off", { thinking: true })).toEqual([{ type: "reasoning", text: "Still thinking when cut off" }]);
  });

  it("a call the reply cut off is invalid, never run: after <function=NAME>, inside a value, after a value", () => {
    for (const output of ["<tool_call>\n<function=get_weather>", "<tool_call>\n<function=get_weather>\n<parameter=city>\nPar", "<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n", "<tool_call>"]) {
      const events = whole(output);
      expect(events, output).toMatchObject([{ type: "tool-call-invalid", error: expect.stringMatching(/cut off/) }]);
    }
    // `</function>` closes the call even when `</tool_call>` does not follow.
    expect(whole("<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n</function>")).toEqual([{ type: "tool-call", name: "get_weather", input: { city: "Paris" } }]);
  });

  it("a value may hold '<' and any text but what ends it: a comparison, HTML, a lone </parameter>", () => {
    const html = "<b>a < b</b> and 1 <2 </parameter>x";
    expect(whole(call("write_file", [["content", html]]))).toEqual([{ type: "tool-call", name: "write_file", input: { content: html } }]);
    // Without newlines around the value, as vLLM's tests write it.
    expect(whole("<tool_call>\n<function=write_file>\n<parameter=content>a < b</parameter>\n</function>\n</tool_call>")).toEqual([{ type: "tool-call", name: "write_file", input: { content: "a < b" } }]);
  });

  it("a call inside the thinking is run (closed by </think> or not), and the reasoning goes on after it: nothing of it reaches the text", () => {
    expect(whole(`Let me look.\n${call("get_weather", [["city", "Oslo"]])}\nThat is all.\n</think>\n\nDone.`, { thinking: true })).toEqual([
      { type: "reasoning", text: "Let me look." },
      { type: "tool-call", name: "get_weather", input: { city: "Oslo" } },
      { type: "reasoning", text: "That is all." },
      { type: "text-delta", delta: "Done." },
    ]);
    expect(whole(`<think>Check.${call("get_weather", [["city", "Oslo"]])}</think>`)).toEqual([
      { type: "reasoning", text: "Check." },
      { type: "tool-call", name: "get_weather", input: { city: "Oslo" } },
    ]);
  });

  it("takes a value whose </parameter> is missing up to the next known parameter", () => {
    const output = "<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n<parameter=days>\n3\n</parameter>\n</function>\n</tool_call>";
    expect(whole(output)).toEqual([{ type: "tool-call", name: "get_weather", input: { city: "Paris", days: 3 } }]);
  });

  it("reports a malformed call as invalid, never as a call", () => {
    expect(whole('<tool_call>\n{"name": "get_weather"}\n</tool_call>')).toEqual([
      { type: "tool-call-invalid", name: "", inputText: '{"name": "get_weather"}', error: "the call must start with <function=NAME>" },
    ]);
    expect(whole("<tool_call>\n<function={{ tc.name }}>\n</function>\n</tool_call>")).toMatchObject([{ type: "tool-call-invalid" }]);
    expect(whole("<tool_call>\n<function=get_weather>\nParis\n</function>\n</tool_call>")).toMatchObject([
      { type: "tool-call-invalid", name: "get_weather", error: "expected <parameter=NAME> or </function> in the call" },
    ]);
  });

  it("gives the same events for any split of the output (property)", () => {
    const pieces = fc.constantFrom(
      "Hello ",
      "<tool_call>",
      "</tool_call>",
      "\n",
      "<function=get_weather>",
      "<function=write_file>",
      "</function>",
      "<parameter=city>",
      "<parameter=content>",
      "<parameter=days>",
      "</parameter>",
      "Paris",
      "42",
      "</think>",
      "<think>",
      "<",
      ">",
      " ",
      "None",
    );
    fc.assert(
      fc.property(fc.array(pieces, { maxLength: 40 }), fc.array(fc.nat(), { maxLength: 8 }), fc.boolean(), (parts, cuts, thinking) => {
        const output = parts.join("");
        const points = [...new Set(cuts.map((cut) => cut % (output.length + 1)))].sort((a, b) => a - b);
        const split: string[] = [];
        let last = 0;
        for (const point of points) {
          split.push(output.slice(last, point));
          last = point;
        }
        split.push(output.slice(last));
        const byChar = [...output];
        const expected = whole(output, { thinking });
        expect(parse(split, { thinking })).toEqual(expected);
        expect(parse(byChar, { thinking })).toEqual(expected);
      }),
      { numRuns: 2000 },
    );
  });

  it("reads a long run of spaces followed by text in linear time (found by the fuzzer: /\\s+$/ backtracked quadratically)", () => {
    const text = `${" ".repeat(100_000)}a`;
    const started = performance.now();
    expect(parse([text.slice(0, 50_000), text.slice(50_000)])).toEqual([{ type: "text-delta", delta: text }]);
    // About 1 ms now; the regex took 0.3 s for 30,000 spaces and 3 s for 100,000 on this machine.
    expect(performance.now() - started).toBeLessThan(300);
  });
});
