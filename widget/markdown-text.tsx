import { memo, useMemo, useRef, type ReactNode } from "react";
import { parseMarkdownIncrementally, type MarkdownBlock, type MarkdownInline, type MarkdownParse } from "./parse-markdown.js";

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
 * and rendered again. Within it, an unchanged line, or an unchanged run of
 * spans in one long line, skips rendering too.
 */
export function MarkdownText({ text }: MarkdownTextProps): ReactNode {
  const previous = useRef<MarkdownParse | undefined>(undefined);
  const parse = useMemo(() => parseMarkdownIncrementally(text, previous.current), [text]);
  previous.current = parse;
  return (
    <div className="markdown">
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
  return lines.flatMap((line, index) =>
    index === 0 ? [<Line key={index} spans={line} />] : [<br key={`br${index}`} />, <Line key={index} spans={line} />],
  );
}

/**
 * Spans per memoized chunk of a long line. A 150 KB line of inline code is
 * ~15,000 spans; rendered whole on every streamed part it took most of each
 * frame. In chunks, a part re-renders the last chunk or two.
 */
const CHUNK_SPANS = 200;

/** One line: a `<span>` of its spans. */
const Line = memo(function Line({ spans }: { spans: MarkdownInline[] }): ReactNode {
  if (spans.length <= CHUNK_SPANS) return <span>{spans.map(renderSpan)}</span>;
  const chunks: ReactNode[] = [];
  for (let start = 0; start < spans.length; start += CHUNK_SPANS) {
    chunks.push(<SpanChunk key={start} spans={spans.slice(start, start + CHUNK_SPANS)} />);
  }
  return <span>{chunks}</span>;
}, sameSpanProps);

const SpanChunk = memo(function SpanChunk({ spans }: { spans: MarkdownInline[] }): ReactNode {
  return spans.map(renderSpan);
}, sameSpanProps);

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
