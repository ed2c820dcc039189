import type { QwenToolCall } from "./format-tool-call.js";
import { formatXmlToolCall } from "./format-xml-tool-call.js";
import { scriptedModel } from "./scripted-model.js";
import type { TestModelDefinition } from "./test-model-definition.js";

/** The default Qwen3.5 scripted model's folder name. */
export const QWEN35_SCRIPTED_ID = "scripted-qwen35";
/** Its call: typed parameters (a string and an integer), as the tool's schema declares them. */
export const DEFAULT_QWEN35_TOOL_CALL: QwenToolCall = { name: "add_to_cart", arguments: { sku: "socks", quantity: 2 } };
/** Its answer after the tool result. */
export const DEFAULT_QWEN35_ANSWER = "Added 2 pairs of socks to your cart.";
/**
 * The default invalid call: Qwen3's JSON inside Qwen3.5's `<tool_call>` tags,
 * with no `<function=NAME>` (a slip small Qwen3.5 models make); a Qwen3.5
 * parser reports it as invalid and never runs it.
 */
export const DEFAULT_QWEN35_INVALID_CALL = '<tool_call>\n{"name": "add_to_cart", "arguments": {"sku": "socks", "quantity": 2}}\n</tool_call>';
/** Default reasoning before the call, before the retry after an invalid call, and before the answer. */
export const DEFAULT_QWEN35_REASONING = {
  call: "The user wants two pairs of socks: add_to_cart takes the sku and a quantity.",
  retry: "That call was not in the XML format. Calling again with <function=add_to_cart>.",
  answer: "The tool added them.",
} as const;

/** Reasoning the replies start with (for `enable_thinking: true`, whose prompt ends in `<think>\n`). */
export interface Qwen35ScriptReasoning {
  /** Before the (first) call. */
  call?: string;
  /** Before the valid call that follows an invalid one. */
  retry?: string;
  /** Before the answer. */
  answer?: string;
  /**
   * How reasoning before a call ends: `"think"` (default) with
   * `\n</think>\n\n`; `"tool_call"` with no `</think>`, the `<tool_call>`
   * opening inside the unclosed reasoning (Qwen3.5 often skips `</think>`).
   * The answer's reasoning always ends with `</think>`.
   */
  end?: "think" | "tool_call";
}

/** Options for `qwen35ScriptedModel`. */
export interface Qwen35ScriptedModelOptions {
  /** Folder name (default `"scripted-qwen35"`). */
  id?: string;
  /** The call (default `add_to_cart` with `{ sku: "socks", quantity: 2 }`). */
  toolCall?: QwenToolCall;
  /** The answer after the tool result (default {@link DEFAULT_QWEN35_ANSWER}). */
  answer?: string;
  /** Start each reply inside reasoning: `true` for {@link DEFAULT_QWEN35_REASONING}, or your own. */
  reasoning?: boolean | Qwen35ScriptReasoning;
  /**
   * First emit an invalid call (`true`: {@link DEFAULT_QWEN35_INVALID_CALL},
   * or the raw text); the script moves on to the valid call when the
   * error comes back as a tool result (a `tool` message), as any result does.
   */
  invalidCall?: boolean | string;
  /** Full control: raw replies, one per tool-result turn (see `ScriptedModelOptions.replies`). */
  replies?: readonly string[];
}

/**
 * The replies a Qwen3.5 scripted model emits, in order: [invalid call,]
 * call, answer, each after its reasoning when `reasoning` is on.
 */
export function qwen35ScriptedReplies(options: Qwen35ScriptedModelOptions = {}): string[] {
  if (options.replies) return [...options.replies];
  const reasoning = options.reasoning === true ? {} : options.reasoning || undefined;
  const think = (key: "call" | "retry" | "answer", beforeCall: boolean): string => {
    if (!reasoning) return "";
    const text = reasoning[key] ?? DEFAULT_QWEN35_REASONING[key];
    return beforeCall && reasoning.end === "tool_call" ? `${text}\n\n` : `${text}\n</think>\n\n`;
  };
  const call = formatXmlToolCall(options.toolCall ?? DEFAULT_QWEN35_TOOL_CALL);
  const answer = `${think("answer", false)}${options.answer ?? DEFAULT_QWEN35_ANSWER}`;
  if (!options.invalidCall) return [`${think("call", true)}${call}`, answer];
  const invalid = options.invalidCall === true ? DEFAULT_QWEN35_INVALID_CALL : options.invalidCall;
  return [`${think("call", true)}${invalid}`, `${think("retry", true)}${call}`, answer];
}

/**
 * `scripted-qwen35`: the weightless scripted stand-in (a Qwen3-architecture
 * graph, Qwen3's tokenizer) with Qwen3.5's chat template, replying in
 * Qwen3.5's format: XML tool calls with typed parameters, reasoning that
 * starts in the reply (the template's thinking prompt is `<think>\n`) and
 * ends with `</think>` or at a `<tool_call>`, an invalid call. Through the
 * real tokenizer, template and `generate()` it replays the script exactly,
 * thinking on or off. Loads with `dtype: "fp32"`.
 */
export function qwen35ScriptedModel(options: Qwen35ScriptedModelOptions = {}): TestModelDefinition {
  return scriptedModel({ id: options.id ?? QWEN35_SCRIPTED_ID, replies: qwen35ScriptedReplies(options), chatFormat: "qwen3.5" });
}
