// The constraint's vocabulary cache on a page, with the browser's real IndexedDB:
// driven by worker/tool-call-constraint/vocabulary-cache.browser.test.ts, which
// serves the built test models at /models/test/<id>/resolve/main/<file>.
import { createStore, get, set } from "idb-keyval";
import { readVocabulary, type TokenizerJson, type Vocabulary } from "../../tool-call-constraint/tokenizer-table.js";
import { cachedVocabulary } from "../../tool-call-constraint/vocabulary-cache.js";

const QWEN3_VOCAB = 151936;
const STOP = [151645];
let tokenizer: TokenizerJson | undefined;

/** The tokenizer as the test changes it: `rename` gives one token another spelling (a site's replaced tokenizer.json). */
function tokenizerFor(change: "none" | "rename" | "added"): TokenizerJson {
  if (!tokenizer) throw new Error("Call vocabularyTest.load(url) first.");
  if (change === "none") return tokenizer;
  const copy = structuredClone(tokenizer);
  if (change === "rename") {
    const id = copy.model.vocab["hello"]!;
    delete copy.model.vocab["hello"];
    copy.model.vocab["hellp"] = id;
  } else {
    copy.added_tokens = [...(copy.added_tokens ?? []), { id: 151700, content: "<extra>", special: false }];
  }
  return copy;
}

const same = (a: Vocabulary, b: Vocabulary): boolean =>
  a.vocabSize === b.vocabSize &&
  a.texts.length === b.texts.length &&
  a.texts.every((text, id) => text === b.texts[id]) &&
  a.encoded.length === b.encoded.length &&
  a.encoded.every((text, id) => text === b.encoded[id]) &&
  JSON.stringify(a.stopIds) === JSON.stringify(b.stopIds);

async function load(url: string): Promise<number> {
  tokenizer = (await (await fetch(url)).json()) as TokenizerJson;
  return Object.keys(tokenizer.model.vocab).length;
}

/** One load's read: where the vocabulary came from, whether it equals a fresh build of the same tokenizer, and the times. */
async function read(modelKey: string, change: "none" | "rename" | "added" = "none") {
  const json = tokenizerFor(change);
  const result = await cachedVocabulary(json, { modelKey, vocabSize: QWEN3_VOCAB, stopIds: STOP });
  const stored = await result.stored;
  const fresh = readVocabulary(json, { vocabSize: QWEN3_VOCAB, stopIds: STOP });
  return { from: result.from, stored, identical: same(result.vocabulary, fresh), readMs: result.readMs, fingerprintMs: result.fingerprintMs, buildMs: fresh.buildMs, helloText: result.vocabulary.texts[json.model.vocab["hello"] ?? json.model.vocab["hellp"]!] };
}

/** Damages the stored entry of `modelKey` as a torn write or a bug could: its texts cut short. */
async function corrupt(modelKey: string): Promise<void> {
  const store = createStore("web-agents-constraint", "vocabularies");
  const entry = await get<{ texts: string }>(modelKey, store);
  if (!entry) throw new Error(`No entry for ${modelKey} to corrupt.`);
  await set(modelKey, { ...entry, texts: entry.texts.slice(0, -100) }, store);
}

/** Injected failure: every IndexedDB put throws as a full quota does (the read still works). */
function failWrites(): void {
  IDBObjectStore.prototype.put = () => {
    throw new DOMException("Injected: the quota is full.", "QuotaExceededError");
  };
}

/** Creates the cache's database without its store, as another version of the code could have: every read then fails. */
function createDatabaseWithoutStore(): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open("web-agents-constraint", 1);
    request.onupgradeneeded = () => request.result.createObjectStore("something-else");
    request.onsuccess = () => {
      request.result.close();
      resolve();
    };
    request.onerror = () => reject(request.error);
  });
}

(window as unknown as { vocabularyTest: unknown }).vocabularyTest = { load, read, corrupt, failWrites, createDatabaseWithoutStore };
document.body.dataset.ready = "true";
