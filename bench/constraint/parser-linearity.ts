import { QwenOutputParser } from "../../models/qwen-output-parser.js";
import { Qwen35OutputParser } from "../../models/qwen35-output-parser.js";

const SIZE = 160_000;
const filler = (unit: string) => unit.repeat(Math.ceil(SIZE / unit.length)).slice(0, SIZE);

/** Outputs of 160 KB in the shapes that made the parsers re-scan (a long value, reasoning, text, a long run of spaces). */
const SHAPES: [string, string][] = [
  ["text with tag look-alikes", filler("lorem < ipsum </tool ")],
  ["reasoning", `<think>${filler("hmm <tool ")}</think>ok`],
  ["a Hermes call with one long string", `<tool_call>{"name": "write_file", "arguments": {"content": "${filler("a</tool ")}"}}</tool_call>`],
  ["a Qwen3.5 value with look-alikes", `<tool_call>\n<function=write_file>\n<parameter=content>\n${filler("x </parameter> <parameter=y>\n")}\n</parameter>\n</function>\n</tool_call>`],
  ["Qwen3.5 values left unclosed", `<tool_call>\n<function=write_file>\n${filler("<parameter=content>\nabc\n")}</function>\n</tool_call>`],
  ["spaces", filler(" ")],
];

/** Milliseconds each parser takes for each shape, fed 4 characters at a time. */
export function parserLinearity(): { shape: string; parser: string; ms: number }[] {
  const tools = [{ name: "write_file", inputSchema: { type: "object", properties: { path: { type: "string" }, content: { type: "string" } } } }];
  const rows: { shape: string; parser: string; ms: number }[] = [];
  for (const [shape, text] of SHAPES) {
    for (const [parser, make] of [["Qwen3", () => new QwenOutputParser()], ["Qwen3.5", () => new Qwen35OutputParser({ tools })]] as const) {
      const subject = make();
      const started = performance.now();
      for (let at = 0; at < text.length; at += 4) subject.push(text.slice(at, at + 4));
      subject.end();
      rows.push({ shape, parser, ms: performance.now() - started });
    }
  }
  return rows;
}
