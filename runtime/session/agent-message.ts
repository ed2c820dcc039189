import type { ToolOutput } from "../core/tool-output.js";
import type { KnownToolErrorCode } from "../errors/error-codes.js";
import type { ToolCallState } from "./tool-call-state.js";

/** Provider data that must travel with a part (signed thinking, item ids). */
export type ProviderMetadata = Record<string, unknown>;

/** Plain text. */
export interface TextPart {
  type: "text";
  text: string;
}

/** The model's reasoning: kept for the next request, never rendered. */
export interface ReasoningPart {
  type: "reasoning";
  text: string;
  providerMetadata?: ProviderMetadata;
}

/** A sub-agent's nested run behind a `delegate_to_<id>` call. */
export interface NestedAgentRun {
  id: string;
  messages: AgentMessage[];
}

/** A tool call and where it is. */
export interface ToolPart {
  type: "tool";
  id: string;
  name: string;
  input: unknown;
  state: ToolCallState;
  output?: ToolOutput;
  /** Why it failed, in the model's words: `Error [<code>]: …`. */
  error?: string;
  /** Why it failed, as data: the error's code (`declined`, `cancelled`, `invalid_input`…), set with `error`. */
  errorCode?: KnownToolErrorCode | (string & {});
  /** What the person should click while the call awaits confirmation. */
  prompt?: string;
  /** A sub-agent's nested run, for a `delegate_to_<id>` call. */
  agent?: NestedAgentRun;
  providerMetadata?: ProviderMetadata;
}

/** One part of a message. */
export type AgentPart = TextPart | ReasoningPart | ToolPart;

/** One turn of the conversation. */
export interface AgentMessage {
  id: string;
  role: "user" | "assistant";
  parts: AgentPart[];
  /**
   * The person stopped this reply (the session's `stop()`) before it
   * finished: what it holds is all there is. Set on assistant messages only;
   * one stopped before its first part has no parts. Never sent to a model.
   */
  stopped?: boolean;
}
