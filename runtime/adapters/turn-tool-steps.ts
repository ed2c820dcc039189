import type { AgentMessage } from "../session/agent-message.js";

/**
 * Tool steps the current turn already took: assistant messages with tool
 * calls after the last user message (a Retry resumes after a finished call).
 * Both adapters count a turn's steps against `maxSteps` this way, and so
 * does the chat handler on the server.
 */
export function turnToolSteps(messages: readonly AgentMessage[]): number {
  let steps = 0;
  for (let index = messages.length - 1; index >= 0 && messages[index]!.role !== "user"; index--) {
    if (messages[index]!.parts.some((part) => part.type === "tool")) steps++;
  }
  return steps;
}
