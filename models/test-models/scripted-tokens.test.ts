import { describe, expect, it } from "vitest";
import { formatToolCall, toPythonStyleJson } from "./format-tool-call.js";
import { createQwen3Tokenizer } from "./qwen3-tokenizer.js";
import { scriptedTokens } from "./scripted-tokens.js";

describe("formatToolCall", () => {
  it("writes Qwen3's tool-call text with Python's JSON spacing", () => {
    expect(formatToolCall({ name: "add_to_cart", arguments: { sku: "socks", sizes: [40, 41], gift: { wrap: true } } })).toBe(
      '<tool_call>\n{"name": "add_to_cart", "arguments": {"sku": "socks", "sizes": [40, 41], "gift": {"wrap": true}}}\n</tool_call>',
    );
    expect(toPythonStyleJson({ note: 'say "hi"', none: null })).toBe('{"note": "say \\"hi\\"", "none": null}');
  });
});

describe("scriptedTokens", () => {
  // One tokenizer for the file: reading Qwen3's whole vocabulary takes about a second each time.
  let loaded: ReturnType<typeof createQwen3Tokenizer> | undefined;
  const qwen3Tokenizer = () => (loaded ??= createQwen3Tokenizer());

  it("reads the template markers with the real Qwen3 tokenizer", async () => {
    const tokens = scriptedTokens(await qwen3Tokenizer(), ["Hello."]);
    expect(tokens).toMatchObject({
      endOfTurn: 151_645,
      userTurn: [151_644, 872],
      toolTurn: [151_644, 872, 198, 151_665],
      assistantHeader: [151_644, 77_091, 198],
      emptyThinking: [151_667, 271, 151_668, 271],
    });
    expect(tokens.replies[0]!.length).toBeGreaterThan(0);
  });

  it("refuses replies it could not tell from the prompt", async () => {
    const tokenizer = await qwen3Tokenizer();
    expect(() => scriptedTokens(tokenizer, [])).toThrow("at least one reply");
    expect(() => scriptedTokens(tokenizer, ["fine", "then <|im_start|>user\nmore"])).toThrow("reply 1 contains <|im_start|>");
    expect(() => scriptedTokens(tokenizer, ["<think>\n\n</think>\n\nHi"])).toThrow("empty <think></think>");
    expect(() => scriptedTokens(tokenizer, ["<think>\nplan\n</think>\n\nHi"])).not.toThrow();
  });

  it("with Qwen3.5's open thinking prompt, reads `<think>\n` and refuses replies that open with it", async () => {
    const tokenizer = await qwen3Tokenizer();
    expect(scriptedTokens(tokenizer, ["plan\n</think>\n\nHi"], { openThinkingPrompt: true }).openThinking).toEqual([151_667, 198]);
    expect(scriptedTokens(tokenizer, ["Hi"]).openThinking).toBeUndefined();
    expect(() => scriptedTokens(tokenizer, ["<think>\nplan\n</think>\n\nHi"], { openThinkingPrompt: true })).toThrow("opens with <think>");
  });
});
