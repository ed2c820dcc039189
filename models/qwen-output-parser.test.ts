import { describe, expect, it } from "vitest";
import { QwenOutputParser, type ModelOutputEvent } from "./qwen-output-parser.js";

/** Parses `chunks` in order and merges adjacent text deltas. */
function parse(chunks: readonly string[]): ModelOutputEvent[] {
  const parser = new QwenOutputParser();
  const events = [...chunks.flatMap((chunk) => parser.push(chunk)), ...parser.end()];
  const merged: ModelOutputEvent[] = [];
  for (const event of events) {
    const last = merged.at(-1);
    if (event.type === "text-delta" && last?.type === "text-delta") merged[merged.length - 1] = { type: "text-delta", delta: last.delta + event.delta };
    else merged.push(event);
  }
  return merged;
}

const OUTPUT =
  "<think>\nThe cart first.\n</think>\n\nLet me check.<tool_call>\n" +
  '{"name": "get_cart", "arguments": {}}\n</tool_call>\n<tool_call>\n' +
  '{"name": "add_to_cart", "arguments": {"sku": "socks", "note": "ünïcode ✓"}}\n</tool_call>';

const EXPECTED: ModelOutputEvent[] = [
  { type: "reasoning", text: "The cart first." },
  { type: "text-delta", delta: "Let me check." },
  { type: "tool-call", name: "get_cart", input: {} },
  { type: "tool-call", name: "add_to_cart", input: { sku: "socks", note: "ünïcode ✓" } },
];

describe("QwenOutputParser", () => {
  it("splits reasoning, text and several tool calls", () => {
    expect(parse([OUTPUT])).toEqual(EXPECTED);
  });

  it("gives the same events for every split point of the stream", () => {
    for (let at = 1; at < OUTPUT.length; at++) {
      expect(parse([OUTPUT.slice(0, at), OUTPUT.slice(at)]), `split at ${at}`).toEqual(EXPECTED);
    }
  });

  it("gives the same events streamed one character at a time", () => {
    expect(parse([...OUTPUT])).toEqual(EXPECTED);
  });

  it("streams plain text as it comes, holding back only what could start a tag", () => {
    const parser = new QwenOutputParser();
    expect(parser.push("Hello <b>world</b> <to")).toEqual([{ type: "text-delta", delta: "Hello <b>world</b> " }]);
    expect(parser.push("ol")).toEqual([]);
    expect(parser.push("s!")).toEqual([{ type: "text-delta", delta: "<tools!" }]);
    expect(parser.push(" <thi")).toEqual([{ type: "text-delta", delta: " " }]);
    expect(parser.end()).toEqual([{ type: "text-delta", delta: "<thi" }]);
  });

  it("drops Qwen's empty think block and the blank lines after it", () => {
    expect(parse(["<think>\n\n</think>\n\nHi there."])).toEqual([{ type: "text-delta", delta: "Hi there." }]);
  });

  it("reports malformed JSON as an invalid call with the name it could read", () => {
    const [event] = parse(['<tool_call>{"name": "add_to_cart", "arguments": {"sku": }</tool_call>']);
    expect(event).toMatchObject({ type: "tool-call-invalid", name: "add_to_cart" });
    expect((event as { error: string }).error).toMatch(/not valid JSON/);
  });

  it.each([
    ['{"arguments": {}}', /needs a "name"/],
    ['{"name": "x", "arguments": [1]}', /must be a JSON object/],
    ['{"name": "x", "arguments": "{oops"}', /string that is not JSON/],
    ["[1, 2]", /needs a "name"/],
  ])("refuses %s", (body, error) => {
    const [event] = parse([`<tool_call>${body}</tool_call>`]);
    expect(event?.type).toBe("tool-call-invalid");
    expect((event as { error: string }).error).toMatch(error);
  });

  it("accepts arguments given as a JSON string, and a call with no arguments", () => {
    expect(parse(['<tool_call>{"name": "a", "arguments": "{\\"n\\": 1}"}</tool_call><tool_call>{"name": "b"}</tool_call>'])).toEqual([
      { type: "tool-call", name: "a", input: { n: 1 } },
      { type: "tool-call", name: "b", input: {} },
    ]);
  });

  it("drops whitespace before a block however the chunks split (found by the fuzzer: one character per chunk sent the newline)", () => {
    const text = "\n<think>\n\n</think>\n";
    expect(parse([text])).toEqual([]);
    expect(parse([...text])).toEqual([]);
    // Whitespace after text is text, whole or split just before the tag.
    expect(parse(["hi  <think>x</think>"])).toEqual([{ type: "text-delta", delta: "hi  " }, { type: "reasoning", text: "x" }]);
    expect(parse(["hi", "  ", "<think>x</think>"])).toEqual([{ type: "text-delta", delta: "hi  " }, { type: "reasoning", text: "x" }]);
    // Whitespace alone, with no block after it, is still text.
    expect(parse([" ", "\n"])).toEqual([{ type: "text-delta", delta: " \n" }]);
  });

  it("flushes an unclosed think as reasoning and an unclosed call as invalid", () => {
    expect(parse(["<think>half a thought"])).toEqual([{ type: "reasoning", text: "half a thought" }]);
    expect(parse(['<tool_call>{"name": "a"'])).toMatchObject([{ type: "tool-call-invalid", name: "a" }]);
  });

  it("a call the reply cut off before </tool_call> is invalid, however whole its JSON (it never runs)", () => {
    const [event, ...rest] = parse(['<tool_call>\n{"name": "final_answer", "arguments": {"trigger": true}}']);
    expect(rest).toEqual([]);
    expect(event).toMatchObject({ type: "tool-call-invalid", name: "final_answer", error: expect.stringMatching(/cut off/) });
  });

  it("runs a call written inside the thinking, and the reasoning goes on after it; a mention of <tool_call> stays reasoning", () => {
    expect(parse(['<think>Check the cart.<tool_call>\n{"name": "get_cart", "arguments": {}}\n</tool_call>Then answer.</think>\n\nDone.'])).toEqual([
      { type: "reasoning", text: "Check the cart." },
      { type: "tool-call", name: "get_cart", input: {} },
      { type: "reasoning", text: "Then answer." },
      { type: "text-delta", delta: "Done." },
    ]);
    expect(parse(["<think>I could use <tool_call> here.</think>No."])).toEqual([
      { type: "reasoning", text: "I could use <tool_call> here." },
      { type: "text-delta", delta: "No." },
    ]);
  });

  it("never shows markup: a stray </think> or </tool_call> is dropped, whatever the order of the tags", () => {
    expect(parse(["Hello</think>\n\nworld</tool_call> end"])).toEqual([{ type: "text-delta", delta: "Hello\n\nworld end" }]);
    expect(parse(["</think>\n\nAnswer"])).toEqual([{ type: "text-delta", delta: "Answer" }]);
    expect(parse(['</tool_call><tool_call>{"name": "a"}</tool_call></think>ok'])).toEqual([{ type: "tool-call", name: "a", input: {} }, { type: "text-delta", delta: "ok" }]);
  });

  it("markup dropped between a tag's pieces leaves no tag behind, however it is chunked (found by the fuzz target)", () => {
    // `</think` + `</tool_call>` + `>`: dropping the closer (or an empty thinking block) must not join its sides into a tag.
    for (const output of ["{{</think</tool_call>>b", "a</thi</think>nk>b", "x<</tool_call>/think>y", "</tool_call<think>\n\n</think>\n>"]) {
      const whole = parse([output]);
      expect(whole.map((event) => (event.type === "text-delta" ? event.delta : "")).join(""), output).not.toMatch(/<\/?(think|tool_call)>/);
      for (let cut = 1; cut < output.length; cut++) expect(parse([output.slice(0, cut), output.slice(cut)]), `${output} cut at ${cut}`).toEqual(whole);
      expect(parse([...output]), output).toEqual(whole);
    }
    // What is kept: the text before, the rest of the would-be tag dropped with the markup.
    expect(parse(["a</think</tool_call>>b"])).toEqual([{ type: "text-delta", delta: "a</thinkb" }]);
  });
});
