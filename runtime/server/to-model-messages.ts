import type { AssistantContent, ModelMessage, ToolResultPart } from "ai";
import type { AgentMessage, ProviderMetadata, ToolPart } from "../session/agent-message.js";
import { untrustedContentNote, untrustedContentSource } from "../core/untrusted-content.js";

type ProviderOptions = NonNullable<ToolResultPart["providerOptions"]>;
type ToolResultOutput = ToolResultPart["output"];
type ContentValue = Extract<ToolResultOutput, { type: "content" }>["value"];
type JsonValue = Extract<ToolResultOutput, { type: "json" }>["value"];

/**
 * The conversation as AI SDK model messages. A user message becomes its
 * text. An assistant message is cut into steps (a step ends with its tool
 * calls): each becomes an assistant message with text, reasoning (its
 * `providerMetadata` back as `providerOptions`, so Claude's signed thinking
 * and OpenAI's item ids survive) and tool calls, followed by a tool message
 * with one result per call. A call that failed, was cancelled or never
 * finished gets an error result: providers refuse a call without a result.
 */
export function toModelMessages(messages: readonly AgentMessage[]): ModelMessage[] {
  const result: ModelMessage[] = [];
  for (const message of messages) {
    if (message.role === "user") {
      const text = message.parts.map((part) => (part.type === "text" ? part.text : "")).join("");
      if (text.trim() !== "") result.push({ role: "user", content: [{ type: "text", text }] });
      continue;
    }
    let content: AssistantContent & unknown[] = [];
    let calls: ToolPart[] = [];
    const flush = () => {
      if (content.length > 0) result.push({ role: "assistant", content });
      if (calls.length > 0) result.push({ role: "tool", content: calls.map(toToolResult) });
      content = [];
      calls = [];
    };
    for (const part of message.parts) {
      if (part.type !== "tool" && calls.length > 0) flush();
      if (part.type === "text") {
        if (part.text !== "") content.push({ type: "text", text: part.text });
      } else if (part.type === "reasoning") {
        content.push({ type: "reasoning", text: part.text, ...providerOptions(part.providerMetadata) });
      } else {
        content.push({
          type: "tool-call",
          toolCallId: part.id,
          toolName: part.name,
          input: isPlainObject(part.input) ? part.input : {},
          ...providerOptions(part.providerMetadata),
        });
        calls.push(part);
      }
    }
    flush();
  }
  return result;
}

function toToolResult(part: ToolPart): ToolResultPart {
  const output = toToolResultOutput(part);
  const source = part.state === "done" && part.output?.isError !== true ? untrustedContentSource(part.output) : undefined;
  return { type: "tool-result", toolCallId: part.id, toolName: part.name, output: source === undefined ? output : untrustedOutput(output, source) };
}

/**
 * A result of an `untrustedContentHint` tool, sent as data that says so:
 * the provider sees a structured tool result whose `untrustedContent` field
 * holds what the tool returned, beside a note that it is data to read, not
 * instructions (images stay content: they cannot be wrapped).
 */
function untrustedOutput(output: ToolResultOutput, tool: string): ToolResultOutput {
  const note = untrustedContentNote(tool);
  if (output.type === "text") return { type: "json", value: { note, untrustedContent: output.value } };
  if (output.type === "json") return { type: "json", value: { note, untrustedContent: output.value } };
  if (output.type === "content") return { type: "content", value: [{ type: "text", text: note }, ...output.value] };
  return output;
}

function toToolResultOutput(part: ToolPart): ToolResultOutput {
  const output = part.output;
  const text = output?.content.map(blockText).filter((block) => block !== "").join("\n") ?? "";
  switch (part.state) {
    case "done":
      if (output === undefined) return { type: "text", value: "(empty result)" };
      if (output.isError === true) return { type: "error-text", value: text || "Error: the tool failed." };
      if (output.content.some(isImage)) {
        const value: ContentValue = [];
        for (const block of output.content) {
          if (isImage(block)) value.push({ type: "image-data", data: block.data, mediaType: block.mimeType });
          else if (blockText(block) !== "") value.push({ type: "text", text: blockText(block) });
        }
        return { type: "content", value };
      }
      if (text === "" && output.structuredContent !== undefined) {
        return { type: "json", value: output.structuredContent as JsonValue };
      }
      return { type: "text", value: text || "(empty result)" };
    case "error":
      return { type: "error-text", value: part.error ?? (text || "Error: the tool failed.") };
    case "cancelled":
      return { type: "error-text", value: part.error ?? "Error [cancelled]: the call was cancelled." };
    default:
      // running / awaiting-confirmation: the page went away mid-call.
      return { type: "error-text", value: "Error [cancelled]: the call did not finish." };
  }
}

type Block = NonNullable<ToolPart["output"]>["content"][number];

function blockText(block: Block): string {
  if (block.type === "text") return typeof block.text === "string" ? block.text : "";
  if (block.type === "resource") {
    const resource = block.resource as { uri?: unknown; text?: unknown } | undefined;
    if (typeof resource?.text === "string") return resource.text;
    return typeof resource?.uri === "string" ? `[resource ${resource.uri}]` : "";
  }
  return "";
}

function isImage(block: Block): block is Extract<Block, { type: "image" }> {
  return block.type === "image" && typeof block.data === "string" && typeof block.mimeType === "string";
}

/** Provider metadata as part options: only provider entries that are objects go through. */
function providerOptions(metadata: ProviderMetadata | undefined): { providerOptions?: ProviderOptions } {
  if (metadata === undefined) return {};
  const entries = Object.entries(metadata).filter(([, value]) => isPlainObject(value));
  return entries.length === 0 ? {} : { providerOptions: Object.fromEntries(entries) as ProviderOptions };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
