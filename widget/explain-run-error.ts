import type { AgentErrorCode } from "../runtime/session/agent-stream-part.js";
import type { SessionError } from "../runtime/session/session-error.js";

/** What the widget offers after a failure: Try again, another adapter (the cloud), both, or neither. */
export interface RunErrorAdvice {
  /** One sentence on what it means, shown above the error's own message. */
  explanation: string;
  /** Whether trying the same turn again can help (not for a model that cannot run here, or one to download first). */
  retry: boolean;
  /** Whether to offer the person another adapter (the device cannot go on; the cloud may). */
  switchAdapter: boolean;
}

const ADVICE: Record<AgentErrorCode, RunErrorAdvice> = {
  chat_disabled: { explanation: "Chat is turned off on this site right now.", retry: true, switchAdapter: true },
  rate_limited: { explanation: "That's a lot of messages for now. Wait a little, then try again.", retry: true, switchAdapter: false },
  bad_request: {
    explanation: "The assistant couldn't take that request. Try again, or start a new chat if it keeps happening.",
    retry: true,
    switchAdapter: false,
  },
  network: { explanation: "Couldn't reach the assistant. Check your connection, then try again.", retry: true, switchAdapter: false },
  busy: { explanation: "The assistant is busy right now. Try again in a moment.", retry: true, switchAdapter: true },
  forbidden_origin: { explanation: "This site is not allowed to use its assistant from this address.", retry: false, switchAdapter: true },
  session_required: { explanation: "The chat session could not start. Try again.", retry: true, switchAdapter: false },
  internal: { explanation: "The assistant failed on the server. Try again.", retry: true, switchAdapter: true },
  worker_died: {
    explanation: "The on-device model stopped, perhaps out of memory. Try again to restart it.",
    retry: true,
    switchAdapter: true,
  },
  quota_exceeded: { explanation: "This device has no room for the model.", retry: false, switchAdapter: true },
  not_cached: { explanation: "The model is not on this device. Download it above to chat here.", retry: false, switchAdapter: true },
  download_failed: { explanation: "The model's download did not finish.", retry: true, switchAdapter: true },
  integrity_failed: { explanation: "The model's download arrived damaged and was not kept.", retry: true, switchAdapter: true },
  load_failed: { explanation: "The on-device model could not load.", retry: true, switchAdapter: true },
  unsupported_device: { explanation: "This browser cannot run the on-device model.", retry: false, switchAdapter: true },
  generation_failed: { explanation: "The on-device model failed while answering.", retry: true, switchAdapter: true },
  context_overflow: { explanation: "This conversation no longer fits the on-device model. Start a new chat, or use another model.", retry: false, switchAdapter: true },
};

/**
 * What a failed run means for the person and which next step to offer,
 * chosen from its code (`RUN_ERROR_CODES`), never from its wording. Without a
 * code: the error's message itself, and Try again.
 */
export function adviseRunError(error: SessionError): RunErrorAdvice {
  return (error.code && ADVICE[error.code]) || { explanation: error.message, retry: true, switchAdapter: false };
}

/** The sentence of {@link adviseRunError}. */
export function explainRunError(error: SessionError): string {
  return adviseRunError(error).explanation;
}
