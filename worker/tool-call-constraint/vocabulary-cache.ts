import { createStore, get, set, type UseStore } from "idb-keyval";
import { readVocabulary, type TokenizerJson, type Vocabulary } from "./tokenizer-table.js";

/** Bumped whenever `readVocabulary` would read the same tokenizer differently: older entries are then rebuilt. */
const FORMAT = 1;

/** A read that takes longer (a blocked open: another tab holds the database) is given up and the vocabulary built. */
const READ_TIMEOUT_MS = 3000;

/**
 * One model's vocabulary as stored: each list joined into one string with
 * the lengths beside it (no separator could be safe: a token may hold any
 * character), and what it was built from, so a stale entry is never used.
 */
export interface StoredVocabulary {
  format: number;
  fingerprint: string;
  vocabSize: number;
  stopIds: number[];
  texts: string;
  textLengths: Uint32Array;
  encoded: string;
  encodedLengths: Uint32Array;
}

export interface CachedVocabulary {
  vocabulary: Vocabulary;
  /** `cache`: read from IndexedDB; `built`: read from the tokenizer (no entry, a stale or corrupt one, or no IndexedDB). */
  from: "cache" | "built";
  /** Milliseconds the fingerprint took (it is taken on every load). */
  fingerprintMs: number;
  /** Milliseconds the IndexedDB read (and unpacking) took; 0 where there is no IndexedDB. */
  readMs: number;
  /** Settles when a built vocabulary is stored (true) or could not be (false); never rejects. */
  stored: Promise<boolean>;
}

let store: UseStore | undefined;
/**
 * The IndexedDB store `web-agents-constraint` / `vocabularies`: its own
 * database, because idb-keyval opens an existing database without an upgrade
 * and so cannot add a store to another's.
 */
function vocabularyStore(): UseStore {
  store ??= createStore("web-agents-constraint", "vocabularies");
  return store;
}

let warned = false;
function warnOnce(what: string, error: unknown): void {
  if (warned) return;
  warned = true;
  const reason = error instanceof Error ? error.message : String(error);
  console.warn(`[web-agents] The tool-call constraint's vocabulary could not be ${what} IndexedDB (${reason}); it is built on each load instead (a few hundred milliseconds).`);
}

/**
 * A fingerprint of everything `readVocabulary` reads (every vocabulary entry
 * and added token, the logits width, the stop ids), so a site that replaces
 * its self-hosted tokenizer under the same URL gets a rebuild. Two 32-bit
 * hashes (FNV-1a and a multiply-xor) over one pass; far cheaper than the build.
 */
export function vocabularyFingerprint(json: TokenizerJson, options: { vocabSize: number; stopIds: readonly number[] }): string {
  let a = 0x811c9dc5;
  let b = 0x9e3779b9;
  let count = 0;
  const mix = (text: string) => {
    for (let index = 0; index < text.length; index++) {
      const code = text.charCodeAt(index);
      a = Math.imul(a ^ code, 0x01000193);
      b = Math.imul(b ^ code, 0x5bd1e995);
      b ^= b >>> 15;
    }
  };
  const mixNumber = (value: number) => {
    a = Math.imul(a ^ (value | 0), 0x01000193);
    b = Math.imul(b ^ (value | 0), 0x5bd1e995);
    b ^= b >>> 13;
  };
  const vocab = json.model.vocab;
  for (const token in vocab) {
    mix(token);
    mixNumber(vocab[token]!);
    count++;
  }
  for (const added of json.added_tokens ?? []) {
    mix(added.content);
    mixNumber(added.id);
    mixNumber(added.special ? 1 : 0);
  }
  mix(json.model.type ?? "");
  mixNumber(options.vocabSize);
  for (const id of options.stopIds) mixNumber(id);
  return `${FORMAT}:${count}:${(a >>> 0).toString(36)}:${(b >>> 0).toString(36)}`;
}

function pack(list: string[]): { joined: string; lengths: Uint32Array } {
  return { joined: list.join(""), lengths: Uint32Array.from(list, (item) => item.length) };
}

function unpack(joined: string, lengths: Uint32Array): string[] {
  const list = new Array<string>(lengths.length);
  let offset = 0;
  for (let index = 0; index < lengths.length; index++) {
    const end = offset + lengths[index]!;
    list[index] = joined.slice(offset, end);
    offset = end;
  }
  return list;
}

const sum = (lengths: Uint32Array): number => lengths.reduce((total, length) => total + length, 0);

/**
 * The entry's vocabulary if it is whole and was built from this tokenizer
 * (same format, fingerprint and logits width; lists of that width whose
 * lengths add up), else undefined: a stale or corrupt entry is never used.
 */
export function storedVocabularyIfValid(entry: unknown, expected: { fingerprint: string; vocabSize: number }): Vocabulary | undefined {
  if (typeof entry !== "object" || entry === null) return undefined;
  const stored = entry as Partial<StoredVocabulary>;
  if (stored.format !== FORMAT || stored.fingerprint !== expected.fingerprint || stored.vocabSize !== expected.vocabSize) return undefined;
  if (typeof stored.texts !== "string" || typeof stored.encoded !== "string") return undefined;
  if (!(stored.textLengths instanceof Uint32Array) || !(stored.encodedLengths instanceof Uint32Array)) return undefined;
  if (stored.textLengths.length !== expected.vocabSize || stored.encodedLengths.length !== expected.vocabSize) return undefined;
  if (sum(stored.textLengths) !== stored.texts.length || sum(stored.encodedLengths) !== stored.encoded.length) return undefined;
  if (!Array.isArray(stored.stopIds) || !stored.stopIds.every((id) => Number.isInteger(id) && id >= 0 && id < expected.vocabSize)) return undefined;
  return {
    vocabSize: expected.vocabSize,
    texts: unpack(stored.texts, stored.textLengths),
    encoded: unpack(stored.encoded, stored.encodedLengths),
    stopIds: [...stored.stopIds],
    buildMs: 0,
  };
}

/** What is stored for `vocabulary` (exported for the validation tests). */
export function toStoredVocabulary(vocabulary: Vocabulary, fingerprint: string): StoredVocabulary {
  const texts = pack(vocabulary.texts);
  const encoded = pack(vocabulary.encoded);
  return {
    format: FORMAT,
    fingerprint,
    vocabSize: vocabulary.vocabSize,
    stopIds: [...vocabulary.stopIds],
    texts: texts.joined,
    textLengths: texts.lengths,
    encoded: encoded.joined,
    encodedLengths: encoded.lengths,
  };
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer in ${ms} ms; another tab may hold the database open`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * The constraint's vocabulary for `modelKey`'s tokenizer: read from
 * IndexedDB when an entry built from this very tokenizer is there, else
 * built with `readVocabulary` and stored (one entry per model key, replaced
 * when the tokenizer changes). Where IndexedDB is missing (Node) it is
 * built, silently; where it fails (quota, private mode, a blocked open) it is
 * built and one warning is printed. A failed write loses nothing: the built
 * vocabulary is returned either way. Errors of the tokenizer itself (not
 * byte-level BPE) are thrown, as `readVocabulary` throws them.
 */
export async function cachedVocabulary(json: TokenizerJson, options: { modelKey: string; vocabSize: number; stopIds: readonly number[] }): Promise<CachedVocabulary> {
  const fingerprintStarted = performance.now();
  const fingerprint = vocabularyFingerprint(json, options);
  const fingerprintMs = performance.now() - fingerprintStarted;
  const build = () => readVocabulary(json, { vocabSize: options.vocabSize, stopIds: options.stopIds });
  if (typeof indexedDB === "undefined") {
    return { vocabulary: build(), from: "built", fingerprintMs, readMs: 0, stored: Promise.resolve(false) };
  }
  const readStarted = performance.now();
  let entry: unknown;
  try {
    entry = await withTimeout(get(options.modelKey, vocabularyStore()), READ_TIMEOUT_MS);
  } catch (error) {
    warnOnce("read from", error);
    return { vocabulary: build(), from: "built", fingerprintMs, readMs: performance.now() - readStarted, stored: Promise.resolve(false) };
  }
  const cached = storedVocabularyIfValid(entry, { fingerprint, vocabSize: options.vocabSize });
  const readMs = performance.now() - readStarted;
  if (cached) return { vocabulary: cached, from: "cache", fingerprintMs, readMs, stored: Promise.resolve(true) };
  const vocabulary = build();
  const stored = set(options.modelKey, toStoredVocabulary(vocabulary, fingerprint), vocabularyStore()).then(
    () => true,
    (error: unknown) => {
      warnOnce("stored in", error);
      return false;
    },
  );
  return { vocabulary, from: "built", fingerprintMs, readMs, stored };
}
