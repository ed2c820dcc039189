import type { ConfirmationReason } from "./tool-policy.js";

/**
 * Why the tool policy holds a call, as data beside its English `prompt`: a
 * chat asks the person in its own words (its labels) from this, never from
 * the prompt's wording.
 */
export interface HeldCallQuestion {
  /** The tool's name in words, as the prompt says it: `place_order` -> `"place order"`. */
  action: string;
  /** `"untrusted-content"`: held because the turn read content the site does not vouch for. */
  reason: ConfirmationReason;
}

// Per module copy: a chat whose session came from another copy of the package finds nothing and shows the prompt as is.
const QUESTIONS = new Map<string, HeldCallQuestion>();

/** The question call `callId` waits on, while the tool policy holds it. */
export function heldCallQuestion(callId: string): HeldCallQuestion | undefined {
  return QUESTIONS.get(callId);
}

/** Records `question` for `callId` until `asked` settles. */
export async function whileAsking<T>(callId: string, question: HeldCallQuestion, asked: () => Promise<T>): Promise<T> {
  QUESTIONS.set(callId, question);
  try {
    return await asked();
  } finally {
    QUESTIONS.delete(callId);
  }
}
