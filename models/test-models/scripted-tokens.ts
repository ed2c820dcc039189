import { QWEN3_IM_END } from "./qwen3-config-files.js";
import type { TokenEncoder } from "./qwen3-tokenizer.js";

/** Token ids the scripted graph is built from. */
export interface ScriptedTokens {
  /** Each reply's tokens, without the end-of-turn token that follows it. */
  replies: number[][];
  /** Emitted after a reply (`<|im_end|>`). */
  endOfTurn: number;
  /** `<|im_start|>user`: a user turn starts. */
  userTurn: number[];
  /** `<|im_start|>user\n<tool_response>`: a turn of tool results starts (Qwen3's template renders tool messages so). */
  toolTurn: number[];
  /** `<|im_start|>assistant\n`: the generation prompt. */
  assistantHeader: number[];
  /** `<think>\n\n</think>\n\n`: what the template adds after the header when `enable_thinking` is false. */
  emptyThinking: number[];
  /**
   * `<think>\n`: what Qwen3.5's template adds after the header when
   * `enable_thinking` is true (the reply then starts inside the reasoning).
   * Absent for Qwen3, whose replies may open with `<think>\n` themselves.
   */
  openThinking?: number[];
  /**
   * What the model answers instead of the script once a tool result since
   * the last user turn is an error (`marker`, the start of `Error [<code>]:`):
   * a declined, cancelled or failed call ends the turn honestly.
   */
  refusal?: { marker: number[]; reply: number[] };
}

/** Options for `scriptedTokens`. */
export interface ScriptedTokensOptions {
  /** The prompt may end in an open `<think>\n` (Qwen3.5's template with thinking on); default false. */
  openThinkingPrompt?: boolean;
  /** The answer once a tool result is an error (see `ScriptedTokens.refusal`); default none. */
  refusal?: string;
}

/**
 * How a failed call's result starts in the prompt (`Error [declined]: …`, the
 * session's tool errors), on a line of its own after `<tool_response>`: the
 * pre-tokenizer splits "Error" and " [" as words, so their ids are the same
 * there as encoded alone.
 */
export const TOOL_ERROR_MARKER = "Error [";

function startsWith(tokens: readonly number[], prefix: readonly number[]): boolean {
  return prefix.length > 0 && prefix.length <= tokens.length && prefix.every((token, index) => tokens[index] === token);
}

/**
 * Tokenizes the replies and the chat-template markers with the real tokenizer.
 * Throws when a reply could not be told apart from the prompt: one containing
 * `<|im_start|>`, or one opening with the empty thinking block.
 */
export function scriptedTokens(tokenizer: TokenEncoder, replies: readonly string[], options: ScriptedTokensOptions = {}): ScriptedTokens {
  if (replies.length === 0) throw new Error("a scripted model needs at least one reply");
  const encode = (text: string): number[] => tokenizer.encode(text, { add_special_tokens: false });
  const tokens: ScriptedTokens = {
    replies: replies.map(encode),
    endOfTurn: QWEN3_IM_END,
    userTurn: encode("<|im_start|>user"),
    toolTurn: encode("<|im_start|>user\n<tool_response>"),
    assistantHeader: encode("<|im_start|>assistant\n"),
    emptyThinking: encode("<think>\n\n</think>\n\n"),
    ...(options.openThinkingPrompt ? { openThinking: encode("<think>\n") } : {}),
    ...(options.refusal !== undefined ? { refusal: { marker: encode(TOOL_ERROR_MARKER), reply: encode(options.refusal) } } : {}),
  };
  const turnStart = tokens.userTurn[0]!;
  [...tokens.replies, ...(tokens.refusal ? [tokens.refusal.reply] : [])].forEach((reply, index) => {
    if (reply.includes(turnStart)) throw new Error(`reply ${index} contains <|im_start|>: the model finds the prompt's end by it`);
    if (startsWith(reply, tokens.emptyThinking)) {
      throw new Error(`reply ${index} opens with an empty <think></think> block, which reads as the prompt's (enable_thinking: false)`);
    }
    if (tokens.openThinking && startsWith(reply, tokens.openThinking)) {
      throw new Error(`reply ${index} opens with <think>, which Qwen3.5's template writes into the prompt: start with the reasoning itself`);
    }
  });
  return tokens;
}
