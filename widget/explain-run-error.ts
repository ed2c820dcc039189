import type { SessionError } from "../runtime/session/session-error.js";

/**
 * What a failed run means for the person, from its code (the codes in
 * adapter-types.txt), shown above the error's own message. Without a known
 * code, the error's message itself.
 */
export function explainRunError(error: SessionError): string {
  switch (error.code) {
    case "chat_disabled":
      return "Chat is turned off on this site right now.";
    case "rate_limited":
      return "That's a lot of messages for now. Wait a little, then try again.";
    case "bad_request":
      return "The assistant couldn't take that request. Try again, or start a new chat if it keeps happening.";
    case "network":
      return "Couldn't reach the assistant. Check your connection, then try again.";
    default:
      return error.message;
  }
}
