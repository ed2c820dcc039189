import { isSpace } from "./parse-inline.js";
import type { MarkdownInline } from "./parse-markdown.js";

/**
 * A line longer than this many characters renders as blocks of about this
 * size, each laid out on its own. One inline formatting context of 150 KB
 * (~15,000 code spans) took 50-500 ms to lay out again on every streamed
 * part, so a long reply on one line cost the square of its length.
 */
export const LONG_LINE_CHARS = 2_000;

/** The characters a span shows. */
export function spanLength(span: MarkdownInline): number {
  if (span.type === "text" || span.type === "code") return span.text.length;
  let length = 0;
  for (const child of span.content) length += spanLength(child);
  return length;
}

/**
 * Splits a long line's spans into pieces of at least `size` characters, each
 * ending on a space inside plain text, so that a piece shown as a block of
 * its own breaks the line where it could have wrapped anyway; where no space
 * comes within another `size` characters, the piece ends there. A line with
 * no space in its plain text (`` `a`a`a… ``, `**a**a…`: thousands of short
 * spans) ends a piece after any span once it holds `2 * size` characters, so
 * no piece grows with the line. Pieces are stable as the line grows:
 * appending text changes only the last.
 */
export function splitLongLine(spans: MarkdownInline[], size = LONG_LINE_CHARS): MarkdownInline[][] {
  const pieces: MarkdownInline[][] = [];
  let piece: MarkdownInline[] = [];
  let pieceLength = 0;
  for (const span of spans) {
    if (span.type !== "text") {
      piece.push(span);
      pieceLength += spanLength(span);
      if (pieceLength >= 2 * size) {
        pieces.push(piece);
        piece = [];
        pieceLength = 0;
      }
      continue;
    }
    let text = span.text;
    while (pieceLength + text.length >= size) {
      const from = Math.max(0, size - pieceLength);
      const space = firstSpace(text, from, from + size);
      // No space for another `size` characters (a URL, base64): cut there;
      // the bubble wraps such a string anywhere (overflow-wrap) anyway.
      if (space === -1 && text.length < from + size) break;
      const cut = space === -1 ? from + size : space + 1;
      piece.push({ type: "text", text: text.slice(0, cut) });
      pieces.push(piece);
      piece = [];
      pieceLength = 0;
      text = text.slice(cut);
    }
    if (text !== "") {
      piece.push({ type: "text", text });
      pieceLength += text.length;
      if (pieceLength >= 2 * size) {
        pieces.push(piece);
        piece = [];
        pieceLength = 0;
      }
    }
  }
  if (piece.length > 0) pieces.push(piece);
  return pieces;
}

/** The index of the first `\s` in `text` from `from` up to `to` (-1: none). A scan, not a regex on a slice: it runs once per span of a long line. */
function firstSpace(text: string, from: number, to: number): number {
  const end = Math.min(to, text.length);
  for (let index = from; index < end; index++) if (isSpace(text.charCodeAt(index))) return index;
  return -1;
}
