import { fromByteLevel, toByteLevel } from "../vocabulary/byte-level-alphabet.js";

/** The longest token the speller tries (longer ones are never needed to write a call's structure). */
const WINDOW = 16;

const spellers = new WeakMap<readonly string[], TokenSpeller>();

/**
 * Writes text as token ids of a byte-level vocabulary in the fewest tokens
 * (tokens up to {@link WINDOW} characters): a valid spelling, not the
 * tokenizer's own, which is all the completion planner needs (it counts the
 * tokens a completion takes, then forces them). The fewest, not the
 * longest-first: longest-first can take one more token than needed, and a
 * budget counted with it then closes a call one token too late. Every byte
 * has a token in a byte-level vocabulary, so any text can be spelt.
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

  /** Token ids that write `text` in the fewest tokens; undefined if some byte has no token (not a byte-level vocabulary). */
  spell(text: string): number[] | undefined {
    const written = toByteLevel(text);
    const size = written.length;
    // fewest[i]: the fewest tokens that write written[i..]; via[i]: the first of them.
    const fewest = new Int32Array(size + 1).fill(-1);
    const via = new Int32Array(size);
    fewest[size] = 0;
    for (let index = size - 1; index >= 0; index--) {
      for (let length = Math.min(WINDOW, size - index); length > 0; length--) {
        const rest = fewest[index + length]!;
        if (rest < 0 || (fewest[index]! >= 0 && rest + 1 >= fewest[index]!)) continue;
        const id = this.#ids.get(written.slice(index, index + length));
        if (id === undefined) continue;
        fewest[index] = rest + 1;
        via[index] = id;
      }
    }
    if (fewest[0]! < 0) return undefined;
    const ids: number[] = [];
    for (let index = 0; index < size; index += this.#encoded[via[index]!]!.length) ids.push(via[index]!);
    return ids;
  }

  /** The UTF-8 bytes token `id` writes (none for a special token). */
  bytesOf(id: number): Uint8Array {
    let bytes = this.#bytes.get(id);
    if (!bytes) this.#bytes.set(id, (bytes = fromByteLevel(this.#encoded[id] ?? "")));
    return bytes;
  }
}
