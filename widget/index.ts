/**
 * `@webmcp-agents/chat`: the chat for React pages, on top of the runtime.
 * The widget (`<AgentChat>`) and its other hooks join as they land.
 * @module
 */
export * from "../runtime/index.js";
export { useAgentSession } from "./use-agent-session.js";
