import type { AgentMessage } from "./agent-message.js";

/**
 * The messages at `path` in a conversation: the conversation itself for the
 * top level, else the nested run of the sub-agent behind each delegate call
 * id in turn (`part.agent.messages`). Empty when a call on the path has no
 * nested run (yet).
 */
export function messagesAt(messages: AgentMessage[], path: readonly string[]): AgentMessage[] {
  let level = messages;
  for (const callId of path) {
    let nested: AgentMessage[] | undefined;
    for (let index = level.length - 1; index >= 0 && nested === undefined; index--) {
      for (const part of level[index]!.parts) if (part.type === "tool" && part.id === callId) nested = part.agent?.messages;
    }
    if (nested === undefined) return [];
    level = nested;
  }
  return level;
}
