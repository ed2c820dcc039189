import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { ensureTestModel, tinyModel } from "../../models/test-models/index.js";
import { prepareToolCallConstraint } from "./constraint-for-request.js";
import { readVocabulary, type TokenizerJson } from "./tokenizer-table.js";
import { prepareTokenizerState, tokenizerState } from "./tokenizer-state.js";
import { cachedVocabulary, storedVocabularyIfValid, toStoredVocabulary, vocabularyFingerprint, type StoredVocabulary } from "./vocabulary-cache.js";

// Node has no IndexedDB: these tests cover the fallback, the fingerprint and the
// validation of stored entries; vocabulary-cache.browser.test.ts covers the store.
const QWEN3_VOCAB = 151936;
const STOP = [151645];

/** The generated tiny model's tokenizer.json: Qwen3's own (byte-identical to qwen3-0.6b-shaped's), 151,643 tokens and 26 added. */
let qwen3: TokenizerJson;
beforeAll(async () => {
  const tiny = await ensureTestModel(tinyModel());
  qwen3 = JSON.parse(await readFile(join(tiny.folder, "tokenizer.json"), "utf8")) as TokenizerJson;
}, 120_000);
afterEach(() => vi.restoreAllMocks());

/** A small byte-level vocabulary with the characters a joined string could trip on. */
const small = (): TokenizerJson => ({
  model: { type: "BPE", vocab: { a: 0, "Ġb": 1, "Ā": 2, "ĊĊ": 3, "Ã©": 4, "Ġ": 5 } },
  added_tokens: [
    { id: 6, content: "<|im_end|>", special: true },
    { id: 7, content: "<tool_call>", special: false },
    { id: 8, content: "\u0000|\ud800", special: false },
  ],
});

describe("vocabulary fingerprint", () => {
  it("is the same for an equal copy and changes with any entry, added token, special flag, logits width or stop id", () => {
    const options = { vocabSize: 12, stopIds: [6] };
    const base = vocabularyFingerprint(small(), options);
    expect(vocabularyFingerprint(structuredClone(small()), options)).toBe(base);
    const changed: TokenizerJson[] = [];
    let json = small();
    json.model.vocab["a"] = 9;
    changed.push(json);
    json = small();
    delete json.model.vocab["a"];
    json.model.vocab["b"] = 0;
    changed.push(json);
    json = small();
    json.added_tokens!.push({ id: 9, content: "</tool_call>", special: false });
    changed.push(json);
    json = small();
    json.added_tokens![1]!.special = true;
    changed.push(json);
    json = small();
    json.added_tokens![1]!.content = "<tool-call>";
    changed.push(json);
    const prints = [...changed.map((changedJson) => vocabularyFingerprint(changedJson, options)), vocabularyFingerprint(small(), { vocabSize: 13, stopIds: [6] }), vocabularyFingerprint(small(), { vocabSize: 12, stopIds: [7] })];
    for (const print of prints) expect(print).not.toBe(base);
    expect(new Set(prints).size).toBe(prints.length);
  });
});

describe("stored entries", () => {
  const options = { vocabSize: 12, stopIds: [6] };
  const built = () => readVocabulary(small(), options);
  const fingerprint = () => vocabularyFingerprint(small(), options);

  it("a stored vocabulary reads back identical, the empty and unusual tokens included", () => {
    const vocabulary = built();
    const entry = structuredClone(toStoredVocabulary(vocabulary, fingerprint()));
    const read = storedVocabularyIfValid(entry, { fingerprint: fingerprint(), vocabSize: 12 });
    expect(read).toEqual({ ...vocabulary, buildMs: 0 });
    expect(read!.texts[8]).toBe("\u0000|\ud800");
    expect(read!.texts[2]).toBe("\u0000");
  });

  it("the Qwen3 vocabulary reads back identical", () => {
    const vocabulary = readVocabulary(qwen3, { vocabSize: QWEN3_VOCAB, stopIds: STOP });
    const print = vocabularyFingerprint(qwen3, { vocabSize: QWEN3_VOCAB, stopIds: STOP });
    const read = storedVocabularyIfValid(structuredClone(toStoredVocabulary(vocabulary, print)), { fingerprint: print, vocabSize: QWEN3_VOCAB });
    expect(read?.texts).toEqual(vocabulary.texts);
    expect(read?.encoded).toEqual(vocabulary.encoded);
    expect(read?.stopIds).toEqual(vocabulary.stopIds);
  });

  it("a corrupt, stale or mismatched entry is rejected, never used", () => {
    const good = () => toStoredVocabulary(built(), fingerprint());
    const expected = { fingerprint: fingerprint(), vocabSize: 12 };
    expect(storedVocabularyIfValid(good(), expected)).toBeDefined();
    const bad: [string, unknown][] = [
      ["nothing", undefined],
      ["a string", "texts"],
      ["another tokenizer", { ...good(), fingerprint: "1:6:x:y" }],
      ["another logits width", { ...good(), vocabSize: 13 }],
      ["an older format", { ...good(), format: 0 }],
      ["a truncated text", { ...good(), texts: good().texts.slice(0, -1) }],
      ["a lengths list too short", { ...good(), encodedLengths: good().encodedLengths.subarray(1) }],
      ["lengths that do not add up", { ...good(), textLengths: Uint32Array.from(good().textLengths, (length, index) => (index === 0 ? length + 1 : length)) }],
      ["lengths as a plain array", { ...good(), textLengths: Array.from(good().textLengths) }],
      ["a stop id out of range", { ...good(), stopIds: [12] }],
      ["no stop ids", { ...good(), stopIds: undefined }],
    ];
    for (const [what, entry] of bad) expect(storedVocabularyIfValid(entry as StoredVocabulary, expected), what).toBeUndefined();
  });
});

describe("without IndexedDB (Node)", () => {
  it("the vocabulary is built as before, with no warning, and reported as not stored", async () => {
    expect(typeof indexedDB).toBe("undefined");
    const warn = vi.spyOn(console, "warn");
    const result = await cachedVocabulary(small(), { modelKey: "small", vocabSize: 12, stopIds: [6] });
    expect(result.from).toBe("built");
    expect(result.vocabulary).toEqual({ ...readVocabulary(small(), { vocabSize: 12, stopIds: [6] }), buildMs: result.vocabulary.buildMs });
    expect(await result.stored).toBe(false);
    expect(warn).not.toHaveBeenCalled();
  });

  it("prepareToolCallConstraint prepares the state the generations then use", async () => {
    const tokenizer = { _tokenizerJSON: small() };
    await prepareToolCallConstraint(tokenizer, { config: { vocab_size: 12 }, generation_config: { eos_token_id: 6 } }, "small");
    const state = tokenizerState(tokenizer, 12, [6]);
    expect(state.vocabulary.texts[1]).toBe(" b");
    expect(tokenizerState(tokenizer, 12, [6])).toBe(state);
  });

  it("a generation that arrives while the vocabulary is prepared builds it itself, and that state is the one kept", async () => {
    const tokenizer = { _tokenizerJSON: small() };
    const preparing = prepareTokenizerState(tokenizer, { modelKey: "small", vocabSize: 12, stopIds: [6] });
    const early = tokenizerState(tokenizer, 12, [6]);
    await preparing;
    expect(tokenizerState(tokenizer, 12, [6])).toBe(early);
  });

  it("a tokenizer that is not byte-level BPE warns once at load and leaves the model unconstrained", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const tokenizer = { _tokenizerJSON: { model: { type: "Unigram", vocab: { a: 0 } } } };
    await expect(prepareToolCallConstraint(tokenizer, { config: { vocab_size: 4 } }, "unigram")).resolves.toBeUndefined();
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]![0])).toMatch(/byte-level BPE tokenizers only.*constrainToolCalls off/);
  });
});
