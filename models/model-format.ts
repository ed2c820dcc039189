/**
 * A model family's format, in one place: how its prompt carries tools, past
 * calls and tool results, how its output is read (text, reasoning, tool calls),
 * and what a tool call looks like (for constrained decoding). One module per
 * family (`qwen3-format.ts`, `qwen35-format.ts`); the engine host runs it in
 * the worker, so the main thread never parses model text.
 */
import type { ToolDescriptor } from "../runtime/session/tool-descriptor.js";
import type { ModelOutputEvent } from "./model-output-event.js";

/** The formats a catalog entry can name (the list: `MODEL_FORMATS`). */
export type { ModelFormatId } from "./model-format-id.js";
import type { ModelFormatId } from "./model-format-id.js";

/** One message in the model's own chat-template shape. */
export interface TemplateMessage {
  role: "system" | "user" | "assistant" | "tool";
  content: string;
  /** An assistant's calls, with their arguments as objects (both Qwen templates render them themselves). */
  tool_calls?: { type: "function"; function: { name: string; arguments: Record<string, unknown> } }[];
}

/** A chat message as an engine without tool support in its template takes it (web-llm). */
export interface PlainChatMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

/** Reads one generation's streamed text; any split of the same text gives the same events. */
export interface FormatParser {
  push(text: string): ModelOutputEvent[];
  end(): ModelOutputEvent[];
}

/** What a tool call looks like, for a decoder that constrains it: its opener and closer, and the tools' schemas. */
export interface ToolCallGrammar {
  /** `hermes-json`: `<tool_call>\n{"name": …, "arguments": {…}}\n</tool_call>`; `qwen-xml`: `<tool_call>\n<function=NAME>\n<parameter=KEY>\nVALUE\n</parameter>\n</function>\n</tool_call>`. */
  syntax: "hermes-json" | "qwen-xml";
  callOpen: string;
  callClose: string;
  tools: readonly { name: string; inputSchema: Record<string, unknown> }[];
}

export interface ModelFormat {
  id: ModelFormatId;
  /**
   * The conversation as the model's own chat template takes it (transformers.js
   * renders it with the template from `tokenizer_config.json`): values the
   * template cannot render are made renderable.
   */
  templateMessages(messages: readonly TemplateMessage[]): TemplateMessage[];
  /** The conversation rendered by the runtime itself, for an engine whose template has no tool support (web-llm). */
  plainMessages(messages: readonly TemplateMessage[], tools: readonly ToolDescriptor[]): PlainChatMessage[];
  /** A parser for one generation; `thinking`: the prompt asked for reasoning. */
  createParser(options: { tools: readonly ToolDescriptor[]; thinking: boolean }): FormatParser;
  /** The tool-call grammar for `tools`. */
  grammar(tools: readonly ToolDescriptor[]): ToolCallGrammar;
  /** Told to the model after a malformed call: how a call is written. */
  callHint: string;
}
