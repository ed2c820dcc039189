/**
 * Fuzzing the Qwen3 (Hermes JSON) output parser with hostile but realistic
 * model text: think blocks, tool calls with valid and broken JSON, stray and
 * partial tags, tags inside JSON strings, unicode, every newline, huge tokens
 * and deep nesting, streamed in any chunks. FUZZ_RUNS cases (10,000 here,
 * 100,000 in `npm run fuzz`).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { chunkings, fuzzProperty, fuzzTimeout, splitText } from "../runtime/test-support/fuzz-property.js";
import { deepNesting, hostileMix, hostileWord, newline } from "../runtime/test-support/hostile-text.js";
import { QwenOutputParser, type ModelOutputEvent } from "./qwen-output-parser.js";

const TAGS = ["<think>", "</think>", "<tool_call>", "</tool_call>"];

/** The events of `chunks`, consecutive text deltas joined (how they are split is not part of the contract). */
export function parseQwen(chunks: readonly string[]): ModelOutputEvent[] {
  const parser = new QwenOutputParser();
  return joinText([...chunks.flatMap((chunk) => parser.push(chunk)), ...parser.end()]);
}

function joinText(events: ModelOutputEvent[]): ModelOutputEvent[] {
  const joined: ModelOutputEvent[] = [];
  for (const event of events) {
    const last = joined.at(-1);
    if (event.type === "text-delta" && last?.type === "text-delta") joined[joined.length - 1] = { type: "text-delta", delta: last.delta + event.delta };
    else joined.push(event);
  }
  return joined;
}

const toolName = fc.constantFrom("get_cart", "add_to_cart", "place_order", "search", "", "a b", "__proto__", "日本");
const callBody = fc.oneof(
  { weight: 6, arbitrary: fc.record({ name: toolName, arguments: fc.dictionary(hostileWord, fc.jsonValue({ maxDepth: 3 }), { maxKeys: 4 }) }).map((call) => JSON.stringify(call)) },
  { weight: 2, arbitrary: fc.record({ name: toolName, arguments: fc.dictionary(hostileWord, fc.jsonValue({ maxDepth: 2 })) }).map((call) => JSON.stringify({ ...call, arguments: JSON.stringify(call.arguments) })) },
  // Broken: no name, arguments not an object, cut JSON, a closing tag inside a string, deep nesting.
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value)) },
  { weight: 1, arbitrary: fc.tuple(toolName, fc.nat({ max: 30 })).map(([name, cut]) => JSON.stringify({ name, arguments: { id: "x".repeat(cut) } }).slice(0, cut)) },
  { weight: 1, arbitrary: toolName.map((name) => `{"name": "${name}", "arguments": {"q": "</tool_call><tool_call>{\\"name\\": \\"place_order\\"}"}}`) },
  { weight: 1, arbitrary: deepNesting.map((nested) => `{"name": "search", "arguments": {"q": ${nested}}}`) },
);

const piece = fc.oneof(
  { weight: 4, arbitrary: fc.tuple(callBody, newline, newline).map(([body, a, b]) => `<tool_call>${a}${body}${b}</tool_call>`) },
  { weight: 2, arbitrary: fc.tuple(hostileWord, newline).map(([text, end]) => `<think>${end}${text}${end}</think>${end}`) },
  { weight: 4, arbitrary: fc.array(hostileWord, { maxLength: 6 }).map((words) => words.join(" ")) },
  { weight: 1, arbitrary: callBody },
);

const output = hostileMix(piece, TAGS, 30);

describe("fuzz: the Qwen3 output parser", () => {
  it(
    "no throw, no case over 100 ms, the same events for any chunking, calls only from <tool_call>, no tag left in text",
    () => {
      fuzzProperty("qwen3-output-parser", fc.tuple(output, chunkings), ([text, cuts]) => {
        const whole = parseQwen([text]);
        for (const offsets of cuts) expect(parseQwen(splitText(text, offsets))).toEqual(whole);
        if (text.length <= 400) expect(parseQwen([...text])).toEqual(whole);
        const calls = whole.filter((event) => event.type === "tool-call" || event.type === "tool-call-invalid").length;
        expect(calls).toBeLessThanOrEqual(text.split("<tool_call>").length - 1);
        // No reasoning or call markup reaches the text, whatever the order of the tags.
        for (const event of whole) if (event.type === "text-delta") for (const tag of TAGS) expect(event.delta).not.toContain(tag);
      });
    },
    fuzzTimeout(),
  );
});
