import { fromByteLevel, toByteLevel } from "../vocabulary/byte-level-alphabet.js";

/** The longest token the speller tries (longer ones are never needed to write a call's structure). */
const WINDOW = 16;

const spellers = new WeakMap<readonly string[], TokenSpeller>();

/**
 * Writes text as token ids of a byte-level vocabulary, greedily (the longest
 * token that fits at each point, up to {@link WINDOW} characters): a valid
 * spelling, not the tokenizer's own, which is all the completion planner
 * needs (it counts the tokens a completion takes, then forces them). Every
 * byte has a token in a byte-level vocabulary, so any text can be spelt.
 */
export class TokenSpeller {
  readonly #ids = new Map<string, number>();
  readonly #bytes = new Map<number, Uint8Array>();
  readonly #encoded: readonly string[];

  private constructor(encoded: readonly string[]) {
    this.#encoded = encoded;
    encoded.forEach((token, id) => {
      if (token && token.length <= WINDOW && !this.#ids.has(token)) this.#ids.set(token, id);
    });
  }

  /** The speller for a vocabulary (each id's byte-level token string, "" for special tokens), built once. */
  static for(encoded: readonly string[]): TokenSpeller {
    let speller = spellers.get(encoded);
    if (!speller) spellers.set(encoded, (speller = new TokenSpeller(encoded)));
    return speller;
  }

  /** Token ids that write `text`; undefined if some byte has no token (not a byte-level vocabulary). */
  spell(text: string): number[] | undefined {
    const written = toByteLevel(text);
    const ids: number[] = [];
    let index = 0;
    while (index < written.length) {
      let length = Math.min(WINDOW, written.length - index);
      let id: number | undefined;
      for (; length > 0; length--) {
        id = this.#ids.get(written.slice(index, index + length));
        if (id !== undefined) break;
      }
      if (id === undefined) return undefined;
      ids.push(id);
      index += length;
    }
    return ids;
  }

  /** The UTF-8 bytes token `id` writes (none for a special token). */
  bytesOf(id: number): Uint8Array {
    let bytes = this.#bytes.get(id);
    if (!bytes) this.#bytes.set(id, (bytes = fromByteLevel(this.#encoded[id] ?? "")));
    return bytes;
  }
}
