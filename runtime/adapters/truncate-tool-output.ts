import type { ToolContent, ToolOutput } from "../core/tool-output.js";
import { LIMITS } from "../session/limits.js";

/** Appended where text was cut, so the model knows it saw only the start. */
export const TRUNCATION_MARKER = " … [truncated]";

/**
 * `text` cut to at most `limit` characters (UTF-16 code units), ending with
 * {@link TRUNCATION_MARKER} when cut, never inside a surrogate pair. Pure and
 * idempotent: text already within the limit comes back unchanged, which is
 * what keeps each request's prefix byte-identical to the previous one.
 */
export function truncateText(text: string, limit: number = LIMITS.toolResultText): string {
  if (text.length <= limit) return text;
  const marker = limit > TRUNCATION_MARKER.length ? TRUNCATION_MARKER : "";
  let keep = limit - marker.length;
  const last = text.charCodeAt(keep - 1);
  if (last >= 0xd800 && last <= 0xdbff) keep--;
  return text.slice(0, keep) + marker;
}

/**
 * A tool result as the model gets it: at most `limit` characters of text
 * across its text blocks and resource texts together (the createCloudAdapter reference:
 * 4000, `LIMITS.toolResultText`). Text blocks the budget no longer reaches are
 * dropped; images are kept; `structuredContent` is dropped when its JSON is
 * longer than `limit`, since it would carry the same data past the bound.
 * Pure and idempotent, like {@link truncateText}. Returns `output` itself
 * when nothing needed cutting.
 */
export function truncateToolOutput(output: ToolOutput, limit: number = LIMITS.toolResultText): ToolOutput {
  let budget = limit;
  let changed = false;
  const content: ToolContent[] = [];
  for (const block of output.content) {
    if (block.type === "text") {
      const text = truncateText(block.text, budget);
      budget -= text.length;
      if (text !== block.text) changed = true;
      if (text === "" && block.text !== "") continue;
      content.push(text === block.text ? block : { ...block, text });
    } else if (block.type === "resource" && typeof block.resource.text === "string") {
      const text = truncateText(block.resource.text, budget);
      budget -= text.length;
      if (text === block.resource.text) content.push(block);
      else {
        changed = true;
        content.push({ ...block, resource: { ...block.resource, text } });
      }
    } else {
      content.push(block);
    }
  }
  const { structuredContent, ...rest } = output;
  const dropStructured = structuredContent !== undefined && JSON.stringify(structuredContent).length > limit;
  if (!changed && !dropStructured) return output;
  return { ...rest, content, ...(structuredContent !== undefined && !dropStructured && { structuredContent }) };
}
