import { PreTrainedTokenizer } from "@huggingface/transformers";
import { describe, expect, it } from "vitest";
import { readQwen3TokenizerFiles } from "./qwen3-tokenizer.js";
import { SCRIPTED_VOCABULARY_SIZE, withVocabularyPrefix } from "./vocabulary-prefix.js";

const whole = readQwen3TokenizerFiles();
const cut = withVocabularyPrefix(whole);
const tokenizerOf = (files: typeof whole) => new PreTrainedTokenizer(JSON.parse(files.tokenizerJson), JSON.parse(files.tokenizerConfigJson));
const texts = [
  'Added socks to your cart. <tool_call>\n{"name": "add_to_cart", "arguments": {"sku": "socks", "qty": 2}}\n</tool_call>',
  "Grüße aus Köln — 東京の天気は? 🧦🧦 naïve café",
  "Error [declined]: the person said no.",
];

describe("withVocabularyPrefix: Qwen3's first tokens for a scripted model", () => {
  it("keeps the ids below the size, every added token and their meaning, and is a fraction of the file", () => {
    const vocab = (JSON.parse(cut.tokenizerJson) as { model: { vocab: Record<string, number> } }).model.vocab;
    const wholeVocab = (JSON.parse(whole.tokenizerJson) as { model: { vocab: Record<string, number> } }).model.vocab;
    expect(Object.keys(vocab)).toHaveLength(SCRIPTED_VOCABULARY_SIZE);
    expect(Object.entries(vocab).every(([token, id]) => id < SCRIPTED_VOCABULARY_SIZE && wholeVocab[token] === id)).toBe(true);
    expect(JSON.parse(cut.tokenizerJson).added_tokens).toEqual(JSON.parse(whole.tokenizerJson).added_tokens);
    expect(cut.tokenizerJson.length).toBeLessThan(whole.tokenizerJson.length / 20);
    expect(cut.version).toBe(`${whole.version}+first-${SCRIPTED_VOCABULARY_SIZE}`);
  });

  it("spells any text, the same way every time, with ids of its own vocabulary only, and decodes it back", () => {
    const tokenizer = tokenizerOf(cut);
    const wholeTokenizer = tokenizerOf(whole);
    for (const text of texts) {
      const ids = tokenizer.encode(text, { add_special_tokens: false });
      expect(ids.every((id) => id < SCRIPTED_VOCABULARY_SIZE || id >= 151_643)).toBe(true);
      expect(tokenizer.encode(text, { add_special_tokens: false })).toEqual(ids);
      expect(tokenizer.decode(ids)).toBe(text);
      // In more pieces than the whole tokenizer's, never fewer.
      expect(ids.length).toBeGreaterThanOrEqual(wholeTokenizer.encode(text, { add_special_tokens: false }).length);
    }
    expect(tokenizer.encode("<tool_call>", { add_special_tokens: false })).toEqual(wholeTokenizer.encode("<tool_call>", { add_special_tokens: false }));
  });

  it("refuses a cut that would lose byte tokens: the tokenizer is not numbered as Qwen3's", () => {
    expect(() => withVocabularyPrefix(whole, 100)).toThrow(/lack 156 of the 256 byte tokens; this is not a byte-level BPE tokenizer numbered as Qwen3's/);
  });
});
