import { heldCallQuestion } from "../runtime/session/held-call-question.js";
import type { ChatLabels } from "./chat-labels.js";

/**
 * What a parked call asks the person: for a call the tool policy holds, the
 * chat's own question (`labels.confirmQuestion`, from the hold's reason);
 * else the tool's own prompt (`waitForClick`: the page's words).
 */
export function parkedPrompt(callId: string, prompt: string | undefined, labels: ChatLabels): string | undefined {
  const question = heldCallQuestion(callId);
  return question ? labels.confirmQuestion(question.action, question.reason === "untrusted-content") : prompt;
}
