import type { AgentMessage } from "./agent-message.js";
import { parseAgentMessages } from "./parse-agent-messages.js";

/**
 * The conversation to send on Retry: everything through the last tool call
 * of the interrupted turn that finished (`done` or `error`), so nothing is
 * done twice (no second add to cart). With nothing finished, the turn starts
 * over from the user's message. Calls that were cancelled or still running,
 * and any text after the last finished call, are dropped. With no user
 * message the messages come back as they are. Throws a `TypeError` naming
 * the first bad path when `messages` is not a conversation.
 */
export function resumable(messages: readonly AgentMessage[]): AgentMessage[] {
  parseAgentMessages(messages);
  const userIndex = messages.findLastIndex((message) => message.role === "user");
  if (userIndex === -1) return messages.slice();
  for (let index = messages.length - 1; index > userIndex; index--) {
    const message = messages[index]!;
    const partIndex = message.parts.findLastIndex(
      (part) => part.type === "tool" && (part.state === "done" || part.state === "error"),
    );
    if (partIndex === -1) continue;
    return [...messages.slice(0, index), { ...message, parts: message.parts.slice(0, partIndex + 1) }];
  }
  return messages.slice(0, userIndex + 1);
}
