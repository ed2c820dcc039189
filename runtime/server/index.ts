/**
 * `@webmcp-agents/chat/server`: what a server imports. For now the agent
 * definitions (plain data); `createChatHandler` joins them with the cloud path.
 * @module
 */
export * from "../agent/index.js";
