import { afterEach, describe, expect, it } from "vitest";
import { forgetTokenizerStates, tokenizerState } from "./tokenizer-state.js";
import type { TokenizerJson } from "./vocabulary/tokenizer-vocabulary.js";

/** A tokenizer object as transformers.js loads it: a new object, and a new parsed tokenizer.json, each load. */
const load = (edit: (json: TokenizerJson) => void = () => {}) => {
  const json: TokenizerJson = {
    model: { type: "BPE", vocab: { a: 0, b: 1, ab: 2, "Ġc": 3 } },
    added_tokens: [
      { id: 4, content: "<|im_end|>", special: true },
      { id: 5, content: "<tool_call>", special: false },
    ],
  };
  edit(json);
  return { _tokenizerJSON: json };
};

describe("tokenizerState: what the constraint builds per tokenizer, reused by content", () => {
  afterEach(forgetTokenizerStates);

  it("a tokenizer loaded again with the same tokenizer.json, logits size and stop ids reads the state already built", () => {
    const first = tokenizerState(load(), 8, [4]);
    expect(tokenizerState(load(), 8, [4, 4])).toBe(first);
    expect(first.readVocabulary().encoded.slice(0, 6)).toEqual(["a", "b", "ab", "Ġc", "", "<tool_call>"]);
  });

  it.each([
    ["one token renumbered", (json: TokenizerJson) => void (json.model.vocab.ab = 7)],
    ["one token more", (json: TokenizerJson) => void (json.model.vocab.ba = 6)],
    ["one token fewer", (json: TokenizerJson) => void delete json.model.vocab.ab],
    ["an added token special where it was not", (json: TokenizerJson) => void (json.added_tokens![1]!.special = true)],
    ["another tokenizer model type", (json: TokenizerJson) => void (json.model.type = "Unigram")],
  ])("%s: a state of its own", (_, edit) => {
    const first = tokenizerState(load(), 8, [4]);
    expect(tokenizerState(load(edit), 8, [4])).not.toBe(first);
  });

  it("another logits size or other stop ids: a state of its own", () => {
    const first = tokenizerState(load(), 8, [4]);
    expect(tokenizerState(load(), 9, [4])).not.toBe(first);
    expect(tokenizerState(load(), 8, [4, 5])).not.toBe(first);
  });

  it("keeps two by content: switching between two tokenizers builds nothing, a third pushes the oldest out", () => {
    const one = tokenizerState(load(), 8, [4]);
    const two = tokenizerState(load((json) => void (json.model.vocab.ba = 6)), 8, [4]);
    expect(tokenizerState(load(), 8, [4])).toBe(one);
    expect(tokenizerState(load((json) => void (json.model.vocab.ba = 6)), 8, [4])).toBe(two);
    tokenizerState(load((json) => void (json.model.vocab.cc = 6)), 8, [4]);
    expect(tokenizerState(load(), 8, [4])).not.toBe(one);
  });

  it("the same tokenizer object always reads its own state, and one without a tokenizer.json is refused with a TypeError", () => {
    const tokenizer = load();
    expect(tokenizerState(tokenizer, 8, [4])).toBe(tokenizerState(tokenizer, 8, [4]));
    expect(() => tokenizerState({}, 8, [4])).toThrow(TypeError);
  });
});
