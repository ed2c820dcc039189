import { formatToolCall, type QwenToolCall } from "./format-tool-call.js";
import { qwen35TokenizerFiles } from "./qwen35-tokenizer.js";
import { withChatTemplateFile, type Qwen3TokenizerFiles } from "./qwen3-tokenizer.js";
import { QWEN3_0_6B_SHAPE } from "./qwen3-shape.js";
import { buildScriptedGraph } from "./scripted-graph.js";
import { withVocabularyPrefix } from "./vocabulary-prefix.js";
import { scriptedTokens } from "./scripted-tokens.js";
import type { TestModelDefinition } from "./test-model-definition.js";

/** The default scripted tool call. */
export const DEFAULT_SCRIPTED_TOOL_CALL: QwenToolCall = { name: "add_to_cart", arguments: { sku: "socks" } };
/** The default scripted answer after the tool result. */
export const DEFAULT_SCRIPTED_ANSWER = "Added socks to your cart.";

/** Options for `scriptedModel`. */
export interface ScriptedModelOptions {
  /** Folder name (default `"scripted"`); give custom scripts their own. */
  id?: string;
  /** The call the first step makes (default `add_to_cart` with `{"sku": "socks"}`). */
  toolCall?: QwenToolCall;
  /** The text after the tool result (default `"Added socks to your cart."`). */
  answer?: string;
  /**
   * Full control instead of `toolCall`/`answer`: reply n is emitted after n
   * tool-result turns since the last user message (the last reply repeats).
   * Replies are raw model text (use `formatToolCall` for calls; several calls
   * or a `<think>` block are fine).
   */
  replies?: readonly string[];
  /**
   * The answer instead of the script as soon as a tool result since the
   * user's message is an error (`Error [declined]`, `[cancelled]`, a failed
   * call): the turn ends there, and claims nothing the page did not do.
   * Default: none (the script goes on whatever the results say).
   */
  refusal?: string;
  /**
   * The chat format (default `"qwen3"`). `"qwen3.5"` puts Qwen3.5's chat
   * template in `tokenizer_config.json` (XML tool calls; with
   * `enable_thinking: true` the prompt ends in `<think>\n` and the reply
   * starts inside the reasoning). The graph stays Qwen3's: the format is
   * what these models test.
   */
  chatFormat?: "qwen3" | "qwen3.5";
  /**
   * Ship the chat template as `chat_template.jinja` only, with none in
   * `tokenizer_config.json` (the layout of newer exports). Default false.
   */
  chatTemplateFile?: boolean;
  /**
   * Ship Qwen3's whole `tokenizer.json` (10.6 MB) instead of its first
   * 16,384 tokens (vocabulary-prefix.ts): for tests whose point is a file
   * larger than one download piece (8 MB). Give such a model its own `id`.
   * Default false.
   */
  wholeTokenizer?: boolean;
}

/** The replies a scripted model with these options emits, in order. */
export function scriptedReplies(options: ScriptedModelOptions = {}): string[] {
  if (options.replies) return [...options.replies];
  return [formatToolCall(options.toolCall ?? DEFAULT_SCRIPTED_TOOL_CALL), options.answer ?? DEFAULT_SCRIPTED_ANSWER];
}

/**
 * `scripted`: a weightless, deterministic Qwen3 stand-in. Through the real
 * tokenizer, chat template and `generate()` (KV cache on, greedy or
 * sampling) it answers a user message with the tool call, and the tool
 * result with the answer, each followed by `<|im_end|>`: an exact two-step
 * tool loop on the real engine. Loads with `dtype: "fp32"`.
 */
export function scriptedModel(options: ScriptedModelOptions = {}): TestModelDefinition {
  const replies = scriptedReplies(options);
  // config.json declares one cache layer of one head of width 1: the cache holds the transcript's token ids.
  const shape = { ...QWEN3_0_6B_SHAPE, layers: 1, hiddenSize: 1, attentionHeads: 1, keyValueHeads: 1, headDim: 1, intermediateSize: 1 };
  const qwen35 = options.chatFormat === "qwen3.5";
  return {
    id: options.id ?? "scripted",
    dtype: "fp32",
    description: qwen35
      ? "weightless stand-in with Qwen3.5's chat template that replays XML tool calls, then an answer: exact tool-loop tests"
      : "weightless Qwen3 stand-in that replays a tool call, then an answer: exact tool-loop tests",
    shape,
    options: {
      replies,
      ...(options.refusal !== undefined && { refusal: options.refusal }),
      ...(qwen35 && { chatFormat: "qwen3.5" }),
      ...(options.chatTemplateFile && { chatTemplateFile: true }),
      ...(options.wholeTokenizer && { wholeTokenizer: true }),
    },
    approximateBytes: options.wholeTokenizer ? 11_500_000 : 500_000,
    ...tokenizerFilesFor(qwen35, options.chatTemplateFile === true, options.wholeTokenizer === true),
    createGraph: async (tokenizer) =>
      buildScriptedGraph(scriptedTokens(await tokenizer(), replies, { openThinkingPrompt: qwen35, ...(options.refusal !== undefined && { refusal: options.refusal }) }), {
        vocabSize: shape.vocabSize,
      }),
  };
}

/**
 * The `tokenizerFiles` hook for a format and template layout: Qwen3's first
 * tokens only unless `wholeTokenizer` (vocabulary-prefix.ts; the graph's ids
 * come from the same tokenizer), with the format's chat template where it lives.
 */
function tokenizerFilesFor(qwen35: boolean, chatTemplateFile: boolean, wholeTokenizer: boolean): { tokenizerFiles: (files: Qwen3TokenizerFiles) => Qwen3TokenizerFiles } {
  const same = (files: Qwen3TokenizerFiles) => files;
  const vocabulary = wholeTokenizer ? same : (files: Qwen3TokenizerFiles) => withVocabularyPrefix(files);
  const format = qwen35 ? qwen35TokenizerFiles : same;
  const layout = chatTemplateFile ? withChatTemplateFile : same;
  return { tokenizerFiles: (files) => layout(format(vocabulary(files))) };
}
