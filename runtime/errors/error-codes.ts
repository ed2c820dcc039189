/**
 * Every error code this package uses, each list declared once. Types are
 * derived from these arrays, and so are the checks that read a code off the
 * wire (`isRunErrorCode`…): a code added here is known everywhere.
 * README "Errors" has the table: where each code comes from, and what the
 * person sees.
 */

/**
 * Why an on-device engine call failed: the worker's `EngineError`, and the
 * browser's built-in model (`context_overflow`: a conversation that does not
 * fit its context window even without its oldest turns).
 */
export const ENGINE_ERROR_CODES = [
  "unsupported_device",
  "not_cached",
  "download_failed",
  "integrity_failed",
  "quota_exceeded",
  "load_failed",
  "generation_failed",
  "worker_died",
  "context_overflow",
  "aborted",
] as const;
export type EngineErrorCode = (typeof ENGINE_ERROR_CODES)[number];

/** A refused `/api/chat` request (the server's `ChatHttpError`, the body's `error`). */
export const CHAT_HTTP_ERROR_CODES = [
  "bad_request",
  "payload_too_large",
  "unsupported_media_type",
  "method_not_allowed",
  "forbidden_origin",
  "session_required",
  "rate_limited",
  "chat_disabled",
  "busy",
  "internal",
] as const;
export type ChatHttpErrorCode = (typeof CHAT_HTTP_ERROR_CODES)[number];

/**
 * The codes a run's `error` part may carry, so the widget can offer the right
 * next step. The cloud's four (the adapter types reference) and the server's other
 * refusals (`busy`, `forbidden_origin`, `session_required`, `internal`),
 * then the on-device ones
 * (an `EngineErrorCode` but `aborted`, which ends a run with
 * `finish: "aborted"`, never an error).
 */
export const RUN_ERROR_CODES = [
  "chat_disabled",
  "rate_limited",
  "bad_request",
  "network",
  "busy",
  "forbidden_origin",
  "session_required",
  "internal",
  "unsupported_device",
  "not_cached",
  "download_failed",
  "integrity_failed",
  "quota_exceeded",
  "load_failed",
  "generation_failed",
  "worker_died",
  "context_overflow",
] as const satisfies readonly (ChatHttpErrorCode | EngineErrorCode | "network")[];
export type RunErrorCode = (typeof RUN_ERROR_CODES)[number];

/** The codes core and the session put on failed tool calls (`Error [<code>]: …`). */
export const TOOL_ERROR_CODES = ["unknown_tool", "invalid_input", "tool_failed", "timeout", "cancelled", "no_webmcp", "delegate_failed", "declined"] as const;
export type KnownToolErrorCode = (typeof TOOL_ERROR_CODES)[number];

/**
 * Errors thrown to the developer, not streamed to the person: the page layer
 * (`registerWebTool`, `waitForClick`, `getModelContext`), the server's setup
 * (`resolveModel`), the bot check (`turnstileHeaders`), `agent.invoke`'s
 * rejection when a run fails without a code, and the local adapter's
 * `selectModel` / `deleteModel` (besides `prepare`'s `worker_died` and
 * `unsupported_device`, engine codes).
 */
export const SETUP_ERROR_CODES = [
  "no_document",
  "no_webmcp",
  "duplicate_tool",
  "target_not_found",
  "missing_api_key",
  "turnstile_unavailable",
  "turnstile_failed",
  "turnstile_timeout",
  "run_failed",
  "unknown_model",
  "model_busy",
] as const;
export type SetupErrorCode = (typeof SETUP_ERROR_CODES)[number];

/** Every code a `WebAgentsError` may carry. */
export type WebAgentsErrorCode = EngineErrorCode | ChatHttpErrorCode | RunErrorCode | KnownToolErrorCode | SetupErrorCode;

const has = (list: readonly string[], value: unknown) => typeof value === "string" && list.includes(value);

/** Whether `value` is a code a run's `error` part may carry. */
export const isRunErrorCode = (value: unknown): value is RunErrorCode => has(RUN_ERROR_CODES, value);
/** Whether `value` is an engine error code. */
export const isEngineErrorCode = (value: unknown): value is EngineErrorCode => has(ENGINE_ERROR_CODES, value);
