import { TokenBytes } from "./token-bytes.js";
import type { Vocabulary } from "./tokenizer-vocabulary.js";

const isSpace = (byte: number) => byte === 0x20 || byte === 0x0a || byte === 0x09 || byte === 0x0d;
const startsCharacter = (byte: number) => byte < 0x80 || byte >= 0xc0;
/** Masks kept per room (characters left before a maximum): the last stretch of a bounded string is read with them. */
const CACHED_ROOM = 64;

const kept = new WeakMap<Vocabulary, TokenShapes>();

/** Ids whose `key` is above `floor`, largest first (a counting sort: keys are capped at 1023). */
function sortedDescending(keys: Uint16Array): Uint32Array {
  const counts = new Uint32Array(1025);
  for (const key of keys) counts[Math.min(key, 1023) + 1]! += 1;
  // Offsets from the top: ids with the largest key first.
  const starts = new Uint32Array(1025);
  let total = 0;
  for (let key = 1023; key >= 0; key--) {
    starts[key] = total;
    total += counts[key + 1]!;
  }
  const order = new Uint32Array(keys.length);
  keys.forEach((key, id) => (order[starts[Math.min(key, 1023)]!++] = id));
  return order;
}

/**
 * What each token of a vocabulary does to the bounds bounds/ keeps (string
 * lengths, whitespace runs, item counts), so that a step near a bound
 * finds the few tokens to check without trying all of them: lengths inside
 * a JSON string and inside a Qwen3.5 text value, whitespace runs, which
 * tokens hold a quote, a separator or a tag's bytes. Built once per
 * vocabulary, when a constrained call first needs it.
 */
export class TokenShapes {
  readonly bytes: TokenBytes;
  readonly size: number;
  /** Whitespace bytes a token starts with, and its longest run of them anywhere. */
  readonly leadingSpace: Uint16Array;
  readonly longestSpace: Uint16Array;
  /** Characters the token adds inside a JSON string (an escape counts one), up to an unescaped quote. */
  readonly stringCharacters: Uint16Array;
  /** 1 when the token holds an unescaped quote (read from inside a string: it closes the string). */
  readonly closesString: Uint8Array;
  /** Its characters (UTF-8 lead bytes). */
  readonly characters: Uint16Array;
  /** 1 when it holds `<`, `>` or a newline: what can end a Qwen3.5 text value or start a tag in it. */
  readonly special: Uint8Array;
  readonly byStringCharacters: Uint32Array;
  readonly byCharacters: Uint32Array;
  readonly byLeadingSpace: Uint32Array;
  /** Tokens with a whitespace run past the limit anywhere in them. */
  readonly longSpaceTokens: Int32Array;
  readonly quoteTokens: Int32Array;
  /** Tokens holding two quotes or more (they may close a string and hold a whole value after it). */
  readonly multiQuoteTokens: Int32Array;
  /** Tokens holding `,` or `]` (they may add or end an array's item). */
  readonly separatorTokens: Int32Array;
  readonly gtTokens: Int32Array;
  readonly maxStringCharacters: number;
  readonly maxCharacters: number;
  readonly maxLeadingSpace: number;
  readonly #completing = new Map<string, Int32Array>();
  readonly #refused = new Map<string, Int32Array>();

  private constructor(vocabulary: Vocabulary, spaceLimit: number) {
    const bytes = (this.bytes = TokenBytes.for(vocabulary));
    const size = (this.size = bytes.size);
    this.leadingSpace = new Uint16Array(size);
    this.longestSpace = new Uint16Array(size);
    this.stringCharacters = new Uint16Array(size);
    this.closesString = new Uint8Array(size);
    this.characters = new Uint16Array(size);
    this.special = new Uint8Array(size);
    const quotes: number[] = [];
    const multiQuotes: number[] = [];
    const separators: number[] = [];
    const greater: number[] = [];
    const longSpace: number[] = [];
    for (let id = 0; id < size; id++) {
      const token = bytes.of(id);
      let leading = 0;
      while (leading < token.length && isSpace(token[leading]!)) leading++;
      let run = 0;
      let longest = 0;
      let characters = 0;
      let inString = 0;
      let escape = 0;
      let closes = 0;
      let special = 0;
      let separator = false;
      let gt = false;
      let quoteCount = 0;
      for (const byte of token) {
        if (byte === 0x22) quoteCount++;
        run = isSpace(byte) ? run + 1 : 0;
        if (run > longest) longest = run;
        if (startsCharacter(byte)) characters++;
        if (byte === 0x3c || byte === 0x3e || byte === 0x0a) special = 1;
        if (byte === 0x2c || byte === 0x5d) separator = true;
        if (byte === 0x3e) gt = true;
        if (closes) continue;
        if (escape > 0) {
          escape = escape === 1 ? (byte === 0x75 ? 2 : 0) : escape === 5 ? 0 : escape + 1;
        } else if (byte === 0x22) closes = 1;
        else {
          if (byte === 0x5c) escape = 1;
          if (startsCharacter(byte)) inString++;
        }
      }
      this.leadingSpace[id] = leading;
      this.longestSpace[id] = longest;
      this.stringCharacters[id] = inString;
      this.closesString[id] = closes;
      this.characters[id] = characters;
      this.special[id] = special;
      if (closes) quotes.push(id);
      if (quoteCount >= 2) multiQuotes.push(id);
      if (separator) separators.push(id);
      if (gt) greater.push(id);
      if (longest > spaceLimit) longSpace.push(id);
    }
    this.byStringCharacters = sortedDescending(this.stringCharacters);
    this.byCharacters = sortedDescending(this.characters);
    this.byLeadingSpace = sortedDescending(this.leadingSpace);
    this.quoteTokens = Int32Array.from(quotes);
    this.multiQuoteTokens = Int32Array.from(multiQuotes);
    this.separatorTokens = Int32Array.from(separators);
    this.gtTokens = Int32Array.from(greater);
    this.longSpaceTokens = Int32Array.from(longSpace);
    this.maxStringCharacters = this.stringCharacters[this.byStringCharacters[0]!] ?? 0;
    this.maxCharacters = this.characters[this.byCharacters[0]!] ?? 0;
    this.maxLeadingSpace = this.leadingSpace[this.byLeadingSpace[0]!] ?? 0;
  }

  /** The shapes of a vocabulary (built once). */
  static for(vocabulary: Vocabulary, spaceLimit: number): TokenShapes {
    let found = kept.get(vocabulary);
    if (!found) kept.set(vocabulary, (found = new TokenShapes(vocabulary, spaceLimit)));
    return found;
  }

  /** Tokens that, after the first `partial` bytes of `word`, complete it (kept per word and partial). */
  completing(word: Uint8Array, partial: number): Int32Array {
    const key = `${word.join(",")}|${partial}`;
    let found = this.#completing.get(key);
    if (!found) {
      const ids: number[] = [];
      for (let id = 0; id < this.size; id++) {
        let matched = partial;
        for (const byte of this.bytes.of(id)) {
          matched = byte === word[matched] ? matched + 1 : byte === word[0] ? 1 : 0;
          if (matched === word.length) {
            ids.push(id);
            break;
          }
        }
      }
      this.#completing.set(key, (found = Int32Array.from(ids)));
    }
    return found;
  }

  /**
   * A bitmask of the tokens refused outright when `room` characters are left
   * before a maximum: inside a JSON string (`string`), those adding more
   * without closing it; inside a text value (`raw`), those adding more that
   * hold nothing that could end the value. Others near the bound are
   * checked one by one (bounds-restriction.ts).
   */
  refused(kind: "string" | "raw", room: number): Int32Array {
    const key = `${kind}|${room}`;
    let mask = this.#refused.get(key);
    if (mask) return mask;
    mask = new Int32Array((this.size + 31) >> 5);
    const order = kind === "string" ? this.byStringCharacters : this.byCharacters;
    const length = kind === "string" ? this.stringCharacters : this.characters;
    const exempt = kind === "string" ? this.closesString : this.special;
    for (const id of order) {
      if (length[id]! <= room) break;
      if (!exempt[id]) mask[id >> 5]! |= 1 << (id & 31);
    }
    if (room >= 0 && room < CACHED_ROOM) this.#refused.set(key, mask);
    return mask;
  }
}
