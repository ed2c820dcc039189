/**
 * `@webmcp-agents/chat`: the chat for React pages, on top of the runtime.
 * @module
 */
export * from "../runtime/index.js";
export { useAgentSession } from "./use-agent-session.js";
export { useAgentSessionStore } from "./use-agent-session-store.js";
export { useSessionSelector } from "./use-session-selector.js";
export { useAgentChat } from "./use-agent-chat.js";
export type { AgentChatState, UseAgentChatOptions } from "./use-agent-chat.js";
export { useWebAgent } from "./use-web-agent.js";
export type { UseWebAgentOptions, WebAgentRun, WebAgentRunStatus } from "./use-web-agent.js";
export { useWebTool } from "./use-web-tool.js";
export { WebAgentsProvider } from "./web-agents-provider.js";
export type { WebAgentsProviderProps } from "./web-agents-provider.js";
export { AgentChat } from "./agent-chat.js";
export type { AgentChatProps } from "./agent-chat.js";
export { AgentCursor } from "./agent-cursor.js";
export { toolTitle } from "./tool-title.js";
export { describeToolState, goToControl } from "./tool-call-view.js";
export { useParkedTarget } from "./parked-targets.js";
export type { AgentCursorProps } from "./agent-cursor.js";
export type { AgentActEvent } from "./agent-act-event.js";
