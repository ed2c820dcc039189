import type { AgentMessage } from "../runtime/session/agent-message.js";

/** Whether `messages` hold a tool call with this id, inside sub-agent runs too. */
export function hasToolCall(messages: readonly AgentMessage[], id: string): boolean {
  return messages.some((message) =>
    message.parts.some((part) => part.type === "tool" && (part.id === id || (part.agent !== undefined && hasToolCall(part.agent.messages, id)))),
  );
}
