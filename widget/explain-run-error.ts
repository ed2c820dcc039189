import type { AgentErrorCode } from "../runtime/session/agent-stream-part.js";
import type { SessionError } from "../runtime/session/session-error.js";
import { DEFAULT_CHAT_LABELS, type ChatLabels } from "./chat-labels.js";

/** What the widget offers after a failure: Try again, another adapter (the cloud), both, or neither. */
export interface RunErrorAdvice {
  /** One sentence on what it means (`labels.errors` by code), shown above the error's own message. */
  explanation: string;
  /** Whether trying the same turn again can help (not for a model that cannot run here, or one to download first). */
  retry: boolean;
  /** Whether to offer the person another adapter (the device cannot go on; the cloud may). */
  switchAdapter: boolean;
}

/** Codes after which Try again cannot help. */
const NO_RETRY: ReadonlySet<AgentErrorCode> = new Set(["forbidden_origin", "quota_exceeded", "not_cached", "unsupported_device", "context_overflow"]);
/** Codes after which another adapter is not offered: the same would happen there, or waiting is the answer. */
const NO_SWITCH: ReadonlySet<AgentErrorCode> = new Set(["rate_limited", "bad_request", "network", "session_required"]);

/**
 * What a failed run means for the person and which next step to offer,
 * chosen from its code (`RUN_ERROR_CODES`), never from its wording. Without a
 * code: the error's message itself, and Try again.
 */
export function adviseRunError(error: SessionError, labels: ChatLabels = DEFAULT_CHAT_LABELS): RunErrorAdvice {
  const explanation = error.code && labels.errors[error.code];
  if (!explanation) return { explanation: error.message, retry: true, switchAdapter: false };
  return { explanation, retry: !NO_RETRY.has(error.code!), switchAdapter: !NO_SWITCH.has(error.code!) };
}

