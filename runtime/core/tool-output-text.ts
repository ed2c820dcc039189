import type { ToolOutput } from "./tool-output.js";

/** A tool result as a model reads it: its text blocks (and resource texts), one per line; structured content when there is no text. */
export function toolOutputText(output: ToolOutput): string {
  const texts: string[] = [];
  for (const block of output.content) {
    if (block.type === "text") texts.push(block.text);
    else if (block.type === "resource") texts.push(block.resource.text ?? `[resource ${block.resource.uri}]`);
    else texts.push(`[image ${block.mimeType}]`);
  }
  if (texts.length === 0 && output.structuredContent !== undefined) return JSON.stringify(output.structuredContent);
  return texts.join("\n");
}
