import type { AgentMessage, AgentPart } from "../session/agent-message.js";
import { LIMITS } from "../session/limits.js";
import { truncateText, truncateToolOutput } from "./truncate-tool-output.js";

function toRequestPart(part: AgentPart): AgentPart {
  if (part.type !== "tool") return part;
  // A sub-agent's nested run stays on the page: the server sees the delegate
  // call and its result. `prompt` is a hint for the person, not the model.
  const { agent: _agent, prompt: _prompt, output, error, ...tool } = part;
  return {
    ...tool,
    ...(output !== undefined && { output: truncateToolOutput(output) }),
    ...(error !== undefined && { error: truncateText(error) }),
  };
}

/**
 * The conversation as a model step reads it: what a POST sends, and what
 * the on-device step renders its prompt from (with no `limit`). Pure and
 * deterministic, so the same history always makes the same bytes and each
 * request repeats the previous one's prefix (provider prompt caches, Claude's
 * signed reasoning and the engine's KV cache rely on that):
 *
 * - nested sub-agent runs (`agent` on tool parts) and `stopped` are stripped;
 * - tool results and errors are cut to `LIMITS.toolResultText` characters
 *   (idempotent, so a result cut before stays the same);
 * - messages with no parts (a step stopped before it said anything) are left out;
 * - past `limit` messages (default `LIMITS.messages`, 160) the oldest are
 *   dropped and the window starts at a user message. When no user message
 *   falls inside the window (one turn longer than the limit), it starts at
 *   the last user message, which the server counts the turn's steps from.
 */
export function toRequestMessages(messages: readonly AgentMessage[], limit: number = LIMITS.messages): AgentMessage[] {
  const kept = messages
    .filter((message) => message.parts.length > 0)
    .map(({ stopped: _stopped, ...message }) => ({ ...message, parts: message.parts.map(toRequestPart) }));
  if (kept.length <= limit) return kept;
  const isUser = (message: AgentMessage) => message.role === "user";
  const from = kept.length - limit;
  let start = kept.findIndex((message, index) => index >= from && isUser(message));
  if (start === -1) start = Math.max(0, kept.findLastIndex(isUser));
  return kept.slice(start);
}
