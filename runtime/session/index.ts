export type { AdapterStatus, AgentAdapter, AgentRunRequest, ModelChoice, ToolCallRequest } from "./agent-adapter.js";
export type {
  AgentMessage,
  AgentPart,
  NestedAgentRun,
  ProviderMetadata,
  ReasoningPart,
  TextPart,
  ToolPart,
} from "./agent-message.js";
export type { AgentErrorCode, AgentStreamPart, FinishReason, StepUsage } from "./agent-stream-part.js";
export type { AgentSession, UseAgentSessionOptions } from "./agent-session.js";
export type { ToolCallState } from "./tool-call-state.js";
export type { ToolDescriptor } from "./tool-descriptor.js";
export type { SessionError } from "./session-error.js";
export { createAgentSession } from "./create-agent-session.js";
export type { AgentSessionStore, AgentSessionUpdate, CreateAgentSessionOptions } from "./create-agent-session.js";
export { initialSessionState, sessionReducer } from "./session-reducer.js";
export type { SessionAction, SessionState } from "./session-reducer.js";
export { resumable } from "./resumable.js";
export { LIMITS } from "./limits.js";
export { parseAgentMessages } from "./parse-agent-messages.js";
export type { ConfirmationReason, ConfirmTool, ConfirmToolsPolicy, ToolConfirmationRequest, ToolHints } from "./tool-policy.js";
