import type { TokenShapes } from "../vocabulary/token-shapes.js";
import type { CallWalker } from "./call-walker.js";
import { WHITESPACE_LIMIT } from "./json-walker.js";

const encoder = new TextEncoder();
const CLOSE = encoder.encode("</parameter>");
const LINE_TAG = encoder.encode("<parameter=");

/** Whether `id`'s bit is set. */
const has = (mask: Int32Array, id: number) => ((mask[id >> 5]! >>> (id & 31)) & 1) === 1;
const set = (mask: Int32Array, id: number) => (mask[id >> 5]! |= 1 << (id & 31));
const clear = (mask: Int32Array, id: number) => (mask[id >> 5]! &= ~(1 << (id & 31)));

/**
 * The tokens that would break a bound now (a string's or text value's
 * length, an array's item count, a whitespace run, a closer in a string),
 * among those `allowed` (xgrammar's mask): a bitmask of refused ids, or
 * undefined when none is. A token is refused only when every reading of the
 * call so far refuses it.
 *
 * Near a length bound most of the vocabulary would do so: those tokens are
 * refused from a table (vocabulary/token-shapes.ts); the few whose effect a
 * table cannot say (a quote that closes the string, a `<` or newline that
 * may end a text value, a separator when an array is full) are fed to a copy
 * of the walker one by one. Away from every bound nothing is tried.
 *
 * With several readings (a call's arguments before its name: one per tool),
 * a token one reading tries may end another for a reason its own bounds
 * never look at (a key its schema lacks): every reading tries every token
 * any of them tries, or such a token would pass for allowed.
 */
export function refusedByBounds(walker: CallWalker, allowed: Int32Array, shapes: TokenShapes): Int32Array | undefined {
  const readings = walker.split();
  const checks = readings.map((reading) => checksIn(reading, allowed, shapes));
  const tried = readings.length > 1 ? checks.flatMap((check) => check.candidates) : undefined;
  let refused: Int32Array | undefined;
  for (const [index, reading] of readings.entries()) {
    const check = checks[index]!;
    const own = tryCandidates(reading, allowed, shapes, check.refused, tried ?? check.candidates);
    // Refused only where every reading refuses: an empty refusal of one reading empties them all.
    if (!own) return undefined;
    if (!refused) refused = own;
    else for (let word = 0; word < refused.length; word++) refused[word]! &= own[word]!;
  }
  return refused;
}

/** What one reading refuses from the tables alone, and the tokens it must try one by one. */
interface ReadingChecks {
  refused?: Int32Array;
  candidates: ArrayLike<number>[];
}

function checksIn(reading: CallWalker, allowed: Int32Array, shapes: TokenShapes): ReadingChecks {
  const context = reading.context();
  let refused: Int32Array | undefined;
  const refusedMask = () => (refused ??= new Int32Array(allowed.length));
  const candidates: ArrayLike<number>[] = [];
  const single: number[] = [];
  const json = context.json;
  const string = json?.string;
  const raw = context.raw;
  if (!string && !raw && !context.tag) {
    // Whitespace here is counted: a token whose leading run carries it past the limit is refused from the table alone.
    if (context.space + shapes.maxLeadingSpace > WHITESPACE_LIMIT) {
      for (let index = 0; index < shapes.byLeadingSpace.length; index++) {
        const id = shapes.byLeadingSpace[index]!;
        if (shapes.leadingSpace[id]! + context.space <= WHITESPACE_LIMIT) break;
        if (has(allowed, id)) set(refusedMask(), id);
      }
    }
    candidates.push(shapes.longSpaceTokens);
  } else {
    // In text whitespace is not counted: a long run matters only in a token that may leave the text (closing the string, or a tag).
    const leaves = string ? shapes.closesString : shapes.special;
    for (let index = 0; index < shapes.longSpaceTokens.length; index++) if (leaves[shapes.longSpaceTokens[index]!]) single.push(shapes.longSpaceTokens[index]!);
  }
  if (string) {
    if (string.escape > 0 || string.literal) {
      // Inside an escape, or a name or enum member, the mask allows only a few tokens: try them all.
      forEachAllowed(allowed, (id) => single.push(id));
    } else {
      const room = string.max - string.count;
      if (room < shapes.maxStringCharacters) {
        orInto(refusedMask(), shapes.refused("string", room), allowed);
        for (const id of shapes.quoteTokens) if (shapes.stringCharacters[id]! > room) single.push(id);
      }
      if (string.count < string.min || json.array) candidates.push(shapes.quoteTokens);
      // A token that closes this string may hold the next value whole (`":"",`).
      if (json.boundedValue) candidates.push(shapes.multiQuoteTokens);
      if (json.forbidden) candidates.push(shapes.completing(json.forbidden, string.forbid));
    }
  } else if (json) {
    if (json.arrayEdge) candidates.push(shapes.separatorTokens);
    if (json.boundedValue) candidates.push(shapes.quoteTokens, shapes.separatorTokens);
  }
  if (context.tag) candidates.push(shapes.gtTokens);
  if (raw) {
    const pending = raw.pending.length;
    if (raw.bounded) {
      const room = raw.max - raw.count - pending;
      if (room < shapes.maxCharacters) {
        orInto(refusedMask(), shapes.refused("raw", room), allowed);
        // Tokens the table refused that may instead go on with what is pending (a close being written): tried one by one.
        const next = continuations(raw.pending);
        for (const id of shapes.byCharacters) {
          if (shapes.characters[id]! <= room) break;
          const first = shapes.bytes.bytes[shapes.bytes.offsets[id]!];
          if (shapes.special[id] || (first !== undefined && next.has(first))) {
            if (refused) clear(refused, id);
            single.push(id);
          }
        }
      }
      if (raw.count < raw.min) candidates.push(shapes.completing(CLOSE, closePartial(raw.pending)), shapes.completing(CLOSE, 0));
    }
    if (raw.tag) candidates.push(shapes.gtTokens);
    if (raw.last === 0x0a || raw.start) candidates.push(shapes.completing(LINE_TAG, 0));
  }
  candidates.push(single);
  return { ...(refused && { refused }), candidates };
}

/** The tables' refusals with every allowed candidate that breaks the reading, tried on a copy of it (undefined: none refused). */
function tryCandidates(reading: CallWalker, allowed: Int32Array, shapes: TokenShapes, tables: Int32Array | undefined, candidates: ArrayLike<number>[]): Int32Array | undefined {
  let refused = tables;
  for (const list of candidates) {
    for (let index = 0; index < list.length; index++) {
      const id = list[index]!;
      if (!has(allowed, id) || (refused && has(refused, id))) continue;
      const copy = reading.clone();
      if (!copy.feed(shapes.bytes.bytes, shapes.bytes.offsets[id], shapes.bytes.offsets[id + 1])) set((refused ??= new Int32Array(allowed.length)), id);
    }
  }
  return refused;
}

/** The bytes that go on with `pending` (the end of a text value that may be its close). */
function continuations(pending: string): Set<number> {
  const next = new Set<number>();
  const text = pending.startsWith("\n") ? pending.slice(1) : pending;
  if (pending === "" || pending === "\n") next.add(0x3c);
  if (text.length < CLOSE.length && text.length > 0) next.add(CLOSE[text.length]!);
  if (pending === "") next.add(0x0a);
  return next;
}

/** How much of `</parameter>` the pending end already holds. */
function closePartial(pending: string): number {
  return pending.startsWith("\n") ? pending.length - 1 : pending.length;
}

function orInto(target: Int32Array, source: Int32Array, allowed: Int32Array): void {
  for (let word = 0; word < target.length; word++) target[word]! |= source[word]! & allowed[word]!;
}

function forEachAllowed(mask: Int32Array, each: (id: number) => void): void {
  for (let word = 0; word < mask.length; word++) {
    let bits = mask[word]!;
    while (bits !== 0) {
      const bit = 31 - Math.clz32(bits & -bits);
      each((word << 5) | bit);
      bits &= bits - 1;
    }
  }
}
