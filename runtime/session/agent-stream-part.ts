import type { ToolOutput } from "../core/tool-output.js";
import type { ProviderMetadata } from "./agent-message.js";

/** Why a run ended. */
export type FinishReason = "stop" | "max-steps" | "aborted";

/** A code the widget explains an `error` part with. */
export type AgentErrorCode = "chat_disabled" | "rate_limited" | "bad_request" | "network";

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
  | { type: "tool-error"; id: string; error: string }
  | { type: "step-finish"; step: number }
  | { type: "finish"; reason: FinishReason }
  | { type: "error"; error: string; code?: AgentErrorCode };
