import { fromByteLevel } from "./byte-level-alphabet.js";

/**
 * Where UTF-8 text stands between bytes: 0 between characters, else the
 * continuation bytes still needed and the range the next one must be in
 * (Unicode's table of well-formed byte sequences: after E0 only A0-BF, after
 * ED only 80-9F, after F0 only 90-BF, after F4 only 80-8F), as
 * `need * 5 + range`.
 */
export type Utf8State = number;

/** The next byte's range, by `range`: any continuation, then E0's, ED's, F0's and F4's second byte. */
const RANGES = [
  [0x80, 0xbf],
  [0xa0, 0xbf],
  [0x80, 0x9f],
  [0x90, 0xbf],
  [0x80, 0x8f],
] as const;

/** The state after `byte`, or -1 where the bytes are not well-formed UTF-8. */
export function utf8Step(state: Utf8State, byte: number): Utf8State {
  const need = Math.floor(state / 5);
  if (need > 0) {
    const [low, high] = RANGES[state % 5]!;
    return byte >= low && byte <= high ? (need - 1) * 5 : -1;
  }
  if (byte < 0x80) return 0;
  if (byte >= 0xc2 && byte <= 0xdf) return 5;
  if (byte === 0xe0) return 10 + 1;
  if (byte === 0xed) return 10 + 2;
  if (byte >= 0xe1 && byte <= 0xef) return 10;
  if (byte === 0xf0) return 15 + 3;
  if (byte === 0xf4) return 15 + 4;
  if (byte >= 0xf1 && byte <= 0xf3) return 15;
  return -1;
}

const shapes = new WeakMap<readonly string[], Utf8Shapes>();

/**
 * How each token of a byte-level vocabulary continues UTF-8 text. xgrammar
 * 0.1.27 matches a string's characters byte by byte and can let through
 * bytes that are not well-formed UTF-8 (which decode to U+FFFD, and so can
 * break a `maxLength` or garble a value); inside a call the constraint also
 * refuses every token that would make the call's text ill-formed.
 */
export class Utf8Shapes {
  readonly #bytes: Uint8Array[];
  /** Per state met so far: each token's state after it (-1: ill-formed). */
  readonly #after = new Map<Utf8State, Int8Array>();

  private constructor(encoded: readonly string[]) {
    this.#bytes = encoded.map((token) => fromByteLevel(token));
  }

  /** The shapes of a vocabulary (each id's byte-level token string), built once. */
  static for(encoded: readonly string[]): Utf8Shapes {
    let found = shapes.get(encoded);
    if (!found) shapes.set(encoded, (found = new Utf8Shapes(encoded)));
    return found;
  }

  /** The state after token `id` follows text in `state`; -1 when the token would make it ill-formed. */
  after(id: number, state: Utf8State): Utf8State {
    return this.table(state)[id] ?? -1;
  }

  readonly #masks = new Map<Utf8State, Int32Array>();

  /** A bitmask of the tokens that keep text in `state` well-formed (bit `id % 32` of word `id >> 5`), computed once per state. */
  mask(state: Utf8State): Int32Array {
    let mask = this.#masks.get(state);
    if (!mask) {
      const table = this.table(state);
      mask = new Int32Array((table.length + 31) >> 5);
      for (let id = 0; id < table.length; id++) if (table[id]! >= 0) mask[id >> 5]! |= 1 << (id & 31);
      this.#masks.set(state, mask);
    }
    return mask;
  }

  /** Each token's state after text in `state` (-1: ill-formed), computed once per state met: read it once per step. */
  table(state: Utf8State): Int8Array {
    let table = this.#after.get(state);
    if (!table) {
      table = new Int8Array(this.#bytes.length);
      this.#bytes.forEach((bytes, token) => {
        let next = state;
        for (let index = 0; index < bytes.length && next >= 0; index++) next = utf8Step(next, bytes[index]!);
        table![token] = next;
      });
      this.#after.set(state, table);
    }
    return table;
  }
}
