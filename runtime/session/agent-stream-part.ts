import type { ToolOutput } from "../core/tool-output.js";
import type { KnownToolErrorCode, RunErrorCode } from "../errors/error-codes.js";
import type { ProviderMetadata } from "./agent-message.js";

/** What one model step's generation cost (an on-device adapter reports it). */
export interface StepUsage {
  promptTokens: number;
  /** Prompt tokens served from the conversation's cache (not computed again). */
  cachedPromptTokens?: number;
  outputTokens: number;
  timeToFirstTokenMs?: number;
  decodeTokensPerSecond?: number;
  /** Tool calls the on-device constraint changed (its mask refused the token the model found likeliest), where it ran. */
  repairedCalls?: number;
}

/** Why a run ended. */
export type FinishReason = "stop" | "max-steps" | "aborted";

/**
 * A code the widget explains an `error` part with, and picks the next step
 * from: the cloud's `chat_disabled`, `rate_limited`, `bad_request`,
 * `network`, and the device's engine codes (`worker_died`,
 * `quota_exceeded`, `load_failed`…). The list: `RUN_ERROR_CODES`.
 */
export type AgentErrorCode = RunErrorCode;

/**
 * What an adapter reports while it runs, in order: `message-start` first for
 * each assistant message, then its parts, and `finish` or `error` last.
 */
export type AgentStreamPart =
  | { type: "message-start"; messageId: string }
  | { type: "text-delta"; messageId: string; delta: string }
  | { type: "reasoning"; messageId: string; text: string; providerMetadata?: ProviderMetadata }
  | {
      type: "tool-call";
      messageId: string;
      id: string;
      name: string;
      input: unknown;
      providerMetadata?: ProviderMetadata;
    }
  | { type: "tool-result"; id: string; output: ToolOutput }
  | {
      type: "tool-error";
      id: string;
      error: string;
      /** Why, as data (`cancelled`, `invalid_input`…); without it, read from an `Error [<code>]:` prefix. */
      code?: KnownToolErrorCode | (string & {});
    }
  /** `usage`: what the step's generation cost, where the adapter knows (the on-device one does). */
  | { type: "step-finish"; step: number; usage?: StepUsage }
  | { type: "finish"; reason: FinishReason }
  | { type: "error"; error: string; code?: AgentErrorCode };
