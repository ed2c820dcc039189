import { InlineScanner } from "./parse-inline.js";
import type { MarkdownInline } from "./parse-markdown.js";

/** A line's spans that a longer line can continue (pass it back to {@link parseInlineIncrementally}). */
export interface InlineParse {
  text: string;
  spans: MarkdownInline[];
  /** The spans before `settledSpans` cover `text[0, settledAt)` and stay so whatever is appended. */
  settledAt: number;
  settledSpans: number;
}

/**
 * `parseInline(text)`, reusing `previous` when `text` continues it: the
 * spans up to its settled point are kept (the same objects) and only the
 * rest is scanned, so a long line streamed in parts costs about its length
 * once, not once a part. The scan is left to right and each rule's match
 * at a point depends only on the text from there up to how far it looked
 * (parse-inline.ts); a point after a finished span, before which no rule
 * looked near the end, reads the same in any longer text.
 */
export function parseInlineIncrementally(text: string, previous?: InlineParse): InlineParse {
  const base = previous !== undefined && previous.settledAt > 0 && text.startsWith(previous.text) ? previous : undefined;
  const from = base?.settledAt ?? 0;
  const scanner = new InlineScanner(from === 0 ? text : text.slice(from));
  const tail = scanner.parse(0, text.length - from, true, true);
  // The settled stretch ends on a span that is not text: the tail's first text starts a span of its own, as in one scan.
  const head = base ? base.spans.slice(0, base.settledSpans) : [];
  return { text, spans: head.length ? head.concat(tail) : tail, settledAt: from + scanner.settled.at, settledSpans: head.length + scanner.settled.spans };
}
