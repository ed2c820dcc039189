import type { ModelFormat } from "../../models/model-format.js";
import type { XGrammarTokenizer } from "../../worker/tool-call-constraint/vocabulary/xgrammar-tokenizer.js";
import { randomTools } from "./random-json-schema.js";

/** Tool sets the random schemas never draw, for the worst cases issue 25 named: a long `maxLength`, many bounds at once. */
export const HARD_TOOL_SETS: { name: string; inputSchema: Record<string, unknown> }[][] = [
  [{ name: "note", inputSchema: { type: "object", properties: { text: { type: "string", maxLength: 200 } }, required: ["text"] } }],
  [{ name: "write", inputSchema: { type: "object", properties: { body: { type: "string", minLength: 100, maxLength: 5000 }, title: { type: "string", maxLength: 300 } }, required: ["body"] } }],
  [
    {
      name: "order",
      inputSchema: {
        type: "object",
        properties: {
          quantity: { type: "integer", minimum: 13, maximum: 120 },
          price: { type: "number", minimum: 0.01 },
          ratio: { type: "number", exclusiveMinimum: 0, exclusiveMaximum: 1 },
          delta: { type: "number", minimum: -2.5, exclusiveMaximum: -1 },
          big: { type: "integer", minimum: 4 },
          lines: { type: "array", items: { type: "string", maxLength: 80 }, minItems: 1, maxItems: 10 },
        },
        required: ["quantity", "price"],
      },
    },
  ],
];

/** Milliseconds to build and compile each tool set's grammar (a fresh one: nothing reused), random sets of `size` tools and the hard ones. */
export async function compileTimes(table: XGrammarTokenizer, format: ModelFormat, sets: number, size: number): Promise<{ random: number[]; hard: number[] }> {
  const time = async (tools: { name: string; inputSchema: Record<string, unknown> }[]) => {
    const started = performance.now();
    (await table.compile(format.grammar(tools.map((tool) => ({ ...tool, description: "" }))))).compiled;
    return performance.now() - started;
  };
  const random: number[] = [];
  for (let seed = 1; seed <= sets; seed++) random.push(await time(randomTools(7000 + seed, size)));
  const hard: number[] = [];
  for (const tools of HARD_TOOL_SETS) hard.push(await time(tools));
  return { random, hard };
}
