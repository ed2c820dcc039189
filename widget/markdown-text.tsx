import { memo, useEffect, useLayoutEffect, useMemo, useReducer, useRef, type ReactNode } from "react";
import { parseMarkdownIncrementally, type MarkdownBlock, type MarkdownInline, type MarkdownParse } from "./parse-markdown.js";
import { onRevealFrame, recordRevealStep, revealStepChars } from "./reveal-queue.js";
import { LONG_LINE_CHARS, spanLength, splitLongLine } from "./split-long-line.js";

/** What `<MarkdownText>` takes. */
export interface MarkdownTextProps {
  /** The model's text. Rendered as text only: HTML in it shows as written. */
  text: string;
}

/**
 * Renders a model's text as a small, safe markdown: paragraphs, headings,
 * lists, quotes, fenced and inline code, bold, italic, and links with
 * http, https, mailto or relative URLs only (opened in a new tab, with no
 * referrer). It builds React elements; no HTML from the model is ever
 * parsed, so `<script>` or `javascript:` links show as inert text.
 *
 * Streamed text is parsed and rendered incrementally: the blocks that end
 * before the last line keep their objects from the previous parse, so
 * their memoized views skip rendering, and only the open block is parsed
 * and rendered again. Within it, an unchanged line, or an unchanged piece
 * of one long line, skips rendering too. A text that arrives further ahead
 * of what is shown than one step (`revealStepChars`: what renders in ~24 ms
 * on this device; a whole long reply, a restored conversation) is shown a
 * step per animation frame, as if it streamed, so no frame renders more.
 */
export function MarkdownText({ text }: MarkdownTextProps): ReactNode {
  const shown = useRef("");
  const [, showMore] = useReducer((count: number) => count + 1, 0);
  const renderStarted = performance.now();
  const from = text.startsWith(shown.current) ? shown.current.length : 0;
  const step = revealStepChars();
  const visible = text.length - from <= step ? text : text.slice(0, from + step);
  useLayoutEffect(() => {
    recordRevealStep(visible.length - from, performance.now() - renderStarted);
    shown.current = visible;
  }, [visible]);
  useEffect(() => (visible.length < text.length ? onRevealFrame(showMore) : undefined), [visible, text]);

  const previous = useRef<MarkdownParse | undefined>(undefined);
  const parse = useMemo(() => parseMarkdownIncrementally(visible, previous.current), [visible]);
  previous.current = parse;
  return (
    // Busy while catching up, so a screen reader reads the reply once it is all there.
    <div className="markdown" dir="auto" aria-busy={visible.length < text.length || undefined}>
      {parse.blocks.map((block, index) => (
        <BlockView key={index} block={block} />
      ))}
    </div>
  );
}

const BlockView = memo(function BlockView({ block }: { block: MarkdownBlock }): ReactNode {
  switch (block.type) {
    case "paragraph":
      return <p>{renderLines(block.lines)}</p>;
    case "heading":
      return (
        <p className="heading">
          <strong>
            <Line spans={block.content} />
          </strong>
        </p>
      );
    case "quote":
      return <blockquote>{renderLines(block.lines)}</blockquote>;
    case "code":
      return (
        <pre className="code" data-language={block.language || undefined}>
          <code>{block.text}</code>
        </pre>
      );
    case "list": {
      const items = block.items.map((lines, index) => <li key={index}>{renderLines(lines)}</li>);
      return block.ordered ? <ol start={block.start === 1 ? undefined : block.start}>{items}</ol> : <ul>{items}</ul>;
    }
  }
});

function renderLines(lines: MarkdownInline[][]): ReactNode[] {
  const long = lines.map(isLongLine);
  return lines.flatMap((line, index) =>
    // A long line is a block of pieces: it breaks the lines around it itself.
    index === 0 || long[index] || long[index - 1]
      ? [<Line key={index} spans={line} />]
      : [<br key={`br${index}`} />, <Line key={index} spans={line} />],
  );
}

function isLongLine(spans: MarkdownInline[]): boolean {
  let length = 0;
  for (const span of spans) {
    length += spanLength(span);
    if (length > LONG_LINE_CHARS) return true;
  }
  return false;
}

/**
 * One line: a `<span>` of its spans. A long one is a block of pieces, each
 * a block laid out on its own (and skipped while off screen, see
 * `.line-piece` in chat-styles.ts) and memoized, so a streamed part
 * re-renders and lays out the last piece, not the whole line.
 */
const Line = memo(function Line({ spans }: { spans: MarkdownInline[] }): ReactNode {
  if (!isLongLine(spans)) return <span>{spans.map(renderSpan)}</span>;
  return (
    <span className="long-line">
      {splitLongLine(spans).map((piece, index) => (
        <LinePiece key={index} spans={piece} />
      ))}
    </span>
  );
}, sameSpanProps);

/**
 * A piece of a long line holds up to a few thousand spans (`` `a`a`a… ``:
 * one element every two characters). Built with the DOM's own calls rather
 * than as React elements it renders several times faster (bench/markdown);
 * still no HTML is parsed: text goes into text nodes, and a link's href is
 * the parser's, which `safeHref` checked (parse-inline.ts).
 */
const LinePiece = memo(function LinePiece({ spans }: { spans: MarkdownInline[] }): ReactNode {
  const piece = useRef<HTMLSpanElement>(null);
  useLayoutEffect(() => {
    const element = piece.current!;
    const children = document.createDocumentFragment();
    appendSpans(children, spans);
    element.replaceChildren(children);
  }, [spans]);
  return <span className="line-piece" ref={piece} />;
}, sameSpanProps);

function appendSpans(parent: Node, spans: MarkdownInline[]): void {
  const document = parent.ownerDocument ?? (parent as Document);
  for (const span of spans) {
    if (span.type === "text") {
      parent.appendChild(document.createTextNode(span.text));
      continue;
    }
    const element = document.createElement(span.type === "link" ? "a" : span.type);
    if (span.type === "code") element.textContent = span.text;
    else {
      if (span.type === "link") {
        element.setAttribute("href", span.href);
        element.setAttribute("target", "_blank");
        element.setAttribute("rel", "noopener noreferrer nofollow");
      }
      appendSpans(element, span.content);
    }
    parent.appendChild(element);
  }
}

function sameSpanProps(previous: { spans: MarkdownInline[] }, next: { spans: MarkdownInline[] }): boolean {
  return sameSpans(previous.spans, next.spans);
}

/** Compared by value: the open block is parsed afresh, so its spans are new objects. */
export function sameSpans(a: MarkdownInline[], b: MarkdownInline[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let index = 0; index < a.length; index++) {
    const left = a[index]!;
    const right = b[index]!;
    if (left === right) continue;
    if (left.type !== right.type) return false;
    switch (left.type) {
      case "text":
      case "code":
        if (left.text !== (right as typeof left).text) return false;
        break;
      case "link":
        if (left.href !== (right as typeof left).href || !sameSpans(left.content, (right as typeof left).content)) return false;
        break;
      case "strong":
      case "em":
        if (!sameSpans(left.content, (right as typeof left).content)) return false;
        break;
    }
  }
  return true;
}

function renderSpan(span: MarkdownInline, key: number): ReactNode {
  switch (span.type) {
    case "text":
      return span.text;
    case "code":
      return <code key={key}>{span.text}</code>;
    case "strong":
      return <strong key={key}>{span.content.map(renderSpan)}</strong>;
    case "em":
      return <em key={key}>{span.content.map(renderSpan)}</em>;
    case "link":
      return (
        <a key={key} href={span.href} target="_blank" rel="noopener noreferrer nofollow">
          {span.content.map(renderSpan)}
        </a>
      );
  }
}
