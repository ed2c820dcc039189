/**
 * `@webmcp-agents/chat`: the chat for React pages, on top of the runtime.
 * Everything in `@webmcp-agents/chat/runtime`, the agent definitions
 * (`@webmcp-agents/chat/agent`), the core's tool functions a page calls, and
 * the React components and hooks.
 * @module
 */
export * from "../runtime/index.js";
export * from "../runtime/agent/index.js";
export { callModelContextTool, defineWebTool, registerWebTool, WebAgentsError } from "../runtime/core/index.js";
export type { WebTool, WebToolConfig, WebToolContext } from "../runtime/core/index.js";
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
export { DEFAULT_CHAT_LABELS } from "./chat-labels.js";
export type { ChatLabels, ChatLabelsInput } from "./chat-labels.js";
export { AgentCursor } from "./agent-cursor.js";
export type { AgentCursorProps } from "./agent-cursor.js";
// For a page's own progress UI of agent.invoke / useWebAgent steps, as the chat shows them.
export { toolTitle } from "./tool-title.js";
export { describeToolState, goToControl } from "./tool-call-view.js";
export { useParkedTarget } from "./parked-targets.js";
