// <MarkdownText> as it was before issue #14 (commit 549759c), over the old parser: the benchmark's "before". Not shipped.
import { useMemo, type ReactNode } from "react";
import { parseMarkdown, type MarkdownBlock, type MarkdownInline } from "./baseline-parse-markdown.js";

/** What `<MarkdownText>` takes. */
interface MarkdownTextProps {
  /** The model's text. Rendered as text only: HTML in it shows as written. */
  text: string;
}

/**
 * Renders a model's text as a small, safe markdown: paragraphs, headings,
 * lists, quotes, fenced and inline code, bold, italic, and links with
 * http, https, mailto or relative URLs only (opened in a new tab, with no
 * referrer). It builds React elements; no HTML from the model is ever
 * parsed, so `<script>` or `javascript:` links show as inert text.
 */
export function BaselineMarkdownText({ text }: MarkdownTextProps): ReactNode {
  const blocks = useMemo(() => parseMarkdown(text), [text]);
  return <div className="markdown">{blocks.map(renderBlock)}</div>;
}

function renderBlock(block: MarkdownBlock, key: number): ReactNode {
  switch (block.type) {
    case "paragraph":
      return <p key={key}>{renderLines(block.lines)}</p>;
    case "heading":
      return (
        <p key={key} className="heading">
          <strong>{renderInline(block.content)}</strong>
        </p>
      );
    case "quote":
      return <blockquote key={key}>{renderLines(block.lines)}</blockquote>;
    case "code":
      return (
        <pre key={key} className="code" data-language={block.language || undefined}>
          <code>{block.text}</code>
        </pre>
      );
    case "list": {
      const items = block.items.map((lines, index) => <li key={index}>{renderLines(lines)}</li>);
      return block.ordered ? (
        <ol key={key} start={block.start === 1 ? undefined : block.start}>
          {items}
        </ol>
      ) : (
        <ul key={key}>{items}</ul>
      );
    }
  }
}

function renderLines(lines: MarkdownInline[][]): ReactNode[] {
  return lines.flatMap((line, index) => (index === 0 ? [renderInline(line, index)] : [<br key={`br${index}`} />, renderInline(line, index)]));
}

function renderInline(spans: MarkdownInline[], key: number | string = 0): ReactNode {
  return <span key={key}>{spans.map(renderSpan)}</span>;
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
