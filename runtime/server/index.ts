/**
 * `@webmcp-agents/chat/server`: what a server imports. `createChatHandler`
 * serves the cloud adapter's `/api/chat` (Fetch API; `toNodeListener` for
 * node:http, Express and Vite); `resolveModel` and `toToolLoopAgent` reach
 * the AI SDK; the counter stores share limits across instances. The agent
 * definitions (plain data) come from here too.
 *
 * The prompt builder, the message conversion, the model labels and the wire
 * types stay inside: the handler uses them, a site configures the handler.
 * @module
 */
export * from "../agent/index.js";
export type { ChatHandlerOptions } from "./chat-handler-options.js";
export { ChatHttpError } from "./chat-http-error.js";
export type { ChatLogger } from "./chat-logger.js";
export type { ChatSessionOptions } from "./chat-session.js";
export { createMemoryCounterStore } from "./counter-store.js";
export type { CounterStore, MemoryCounterStoreOptions } from "./counter-store.js";
export { createChatHandler } from "./create-chat-handler.js";
export type { ChatHandler } from "./create-chat-handler.js";
export { createRedisCounterStore } from "./create-redis-counter-store.js";
export type { RedisCounterStore, RedisCounterStoreOptions } from "./create-redis-counter-store.js";
export type { DailyBudgetOptions } from "./daily-budget.js";
export type { RateLimitOptions } from "./rate-limit.js";
export { MissingApiKeyError, resolveModel } from "./resolve-model.js";
export type { ResolveModelOptions } from "./resolve-model.js";
export { toNodeListener } from "./to-node-listener.js";
export type { FetchHandler, NodeListener } from "./to-node-listener.js";
export { toToolLoopAgent } from "./to-tool-loop-agent.js";
export type { ToolLoopAgentOptions } from "./to-tool-loop-agent.js";
