import { byteLevelAlphabet } from "./byte-level-alphabet.js";
import type { Vocabulary } from "./tokenizer-vocabulary.js";

const kept = new WeakMap<Vocabulary, TokenBytes>();

/** Every token's UTF-8 bytes in one buffer (a special token has none): read once per vocabulary. */
export class TokenBytes {
  readonly bytes: Uint8Array;
  /** Token `id`'s bytes are `bytes[offsets[id]]` to `bytes[offsets[id + 1]]`. */
  readonly offsets: Uint32Array;

  private constructor(vocabulary: Vocabulary) {
    const { toByte } = byteLevelAlphabet();
    const offsets = new Uint32Array(vocabulary.vocabSize + 1);
    let length = 0;
    for (let id = 0; id < vocabulary.vocabSize; id++) {
      offsets[id] = length;
      length += [...vocabulary.encoded[id]!].length;
    }
    offsets[vocabulary.vocabSize] = length;
    const bytes = new Uint8Array(length);
    for (let id = 0; id < vocabulary.vocabSize; id++) {
      let at = offsets[id]!;
      for (const char of vocabulary.encoded[id]!) bytes[at++] = toByte.get(char) ?? 0x3f;
    }
    this.bytes = bytes;
    this.offsets = offsets;
  }

  static for(vocabulary: Vocabulary): TokenBytes {
    let found = kept.get(vocabulary);
    if (!found) kept.set(vocabulary, (found = new TokenBytes(vocabulary)));
    return found;
  }

  /** Token `id`'s bytes (a view, not a copy). */
  of(id: number): Uint8Array {
    return this.bytes.subarray(this.offsets[id], this.offsets[id + 1]);
  }

  get size(): number {
    return this.offsets.length - 1;
  }
}
