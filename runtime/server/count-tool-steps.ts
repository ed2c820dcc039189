import type { AgentMessage } from "../session/agent-message.js";

/**
 * The tool steps of the current turn: in the messages after the last user
 * message, each run of consecutive tool parts within one assistant message
 * is one step (a step's text and reasoning come before its calls, so
 * anything between two calls starts a new step). Two steps whose calls touch
 * with nothing between them, in one message, count once; the client's own
 * count (`step` in the request) covers that case.
 */
export function countToolSteps(messages: readonly AgentMessage[]): number {
  let steps = 0;
  for (const message of messages) {
    if (message.role === "user") {
      steps = 0;
      continue;
    }
    let inCalls = false;
    for (const part of message.parts) {
      if (part.type === "tool" && !inCalls) steps += 1;
      inCalls = part.type === "tool";
    }
  }
  return steps;
}
