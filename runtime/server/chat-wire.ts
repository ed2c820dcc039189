/**
 * The wire between `createCloudAdapter` (browser) and `createChatHandler`
 * (server): types only, shared by both sides with `import type`.
 *
 * GET  {api}  -> 200 application/json ChatAvailability (sets the session cookie when sessions are on)
 * POST {api}  ChatRequestBody -> 200 text/event-stream of ChatWireEvent, one per SSE `data:` line,
 *             ending with a `finish` or `error` event; or an HTTP error with a ChatErrorBody.
 *             While the model is silent the server sends `: ping` comment lines: skip lines
 *             that do not start with `data:`.
 *
 * One POST is one model step. The server counts the tool steps of the current
 * turn (after the last user message, each run of consecutive tool parts in an
 * assistant message is one step; or the request's `step`, if higher) and, once
 * they reach the agent's `maxSteps`, answers that request with tools switched
 * off (declared, `toolChoice: "none"`) so the model sums up: it finishes `stop`.
 */
import type { AgentMessage } from "../session/agent-message.js";
import type { StepPart } from "../session/step-part.js";
import type { ToolDescriptor } from "../session/tool-descriptor.js";

/** What GET answers. */
export interface ChatAvailability {
  /** False when no provider key is configured (or chat is switched off). */
  enabled: boolean;
  /** The model id in use, `"<provider>/<model>"`, when enabled. */
  model?: string;
  /** A display name for the adapter switcher, for example "GPT-5.5 (cloud)". */
  label?: string;
}

/** What each POST carries. */
export interface ChatRequestBody {
  /** The conversation; sub-agents' nested runs already stripped. */
  messages: AgentMessage[];
  /** The page's tools, read fresh for this step. */
  tools: ToolDescriptor[];
  page: { url: string };
  /** The page agent's id only: instructions never travel. */
  agent?: string;
  /**
   * Optional: the tool steps of this turn the client has already run (0 on
   * a turn's first request). The server uses the larger of this and its own
   * count from `messages`, which cannot split two steps whose tool parts
   * touch inside one assistant message.
   */
  step?: number;
}

/**
 * One server-sent event of a model step: the step parts every path streams
 * (`runtime/session/step-part.ts`), but usage (the provider's is not the
 * person's business). The cloud adapter hands them to the step loop as they
 * are. The server always names a call's `id`; `finish` `tool-calls` means
 * the client runs them and sends the next step.
 */
export type ChatWireEvent = Exclude<StepPart, { type: "usage" }>;

/** The JSON body of an HTTP error. */
export interface ChatErrorBody {
  /** A stable code: `bad_request`, `payload_too_large`, `unsupported_media_type`, `method_not_allowed`, `forbidden_origin`, `session_required`, `rate_limited`, `chat_disabled`, `busy`, `internal`. */
  error: string;
  /** What to do, for people. */
  message: string;
  /**
   * Why, where it matters: on a 503 `busy`, `"daily_budget"` (the day's budget
   * is spent), `"budget_unavailable"` (the counter store is unreachable) or
   * `"turnstile_unavailable"` (the bot check can't be verified); on a 401
   * `session_required` from the session GET, `"turnstile_failed"`.
   */
  reason?: string;
}
