/**
 * `@webmcp-agents/chat/server`: what a server imports. `createChatHandler`
 * serves the cloud adapter's `/api/chat` (Fetch API; `toNodeListener` for
 * node:http, Express and Vite); `resolveModel` and `toToolLoopAgent` reach
 * the AI SDK; the counter stores share limits across instances. The agent
 * definitions (plain data) come from here too.
 * @module
 */
export * from "../agent/index.js";
export { BASE_SYSTEM_PROMPT, buildSystemPrompt } from "./build-system-prompt.js";
export type { ChatHandlerOptions } from "./chat-handler-options.js";
export { ChatHttpError } from "./chat-http-error.js";
export type { ChatHttpErrorCode, ChatHttpErrorOptions } from "./chat-http-error.js";
export type { ChatLogger } from "./chat-logger.js";
export type { ChatSessionOptions } from "./chat-session.js";
export type { ChatAvailability, ChatErrorBody, ChatRequestBody, ChatWireEvent } from "./chat-wire.js";
export { createMemoryCounterStore } from "./counter-store.js";
export type { CounterStore, MemoryCounterStoreOptions } from "./counter-store.js";
export { createChatHandler, SUMMARY_NOTE } from "./create-chat-handler.js";
export type { ChatHandler } from "./create-chat-handler.js";
export { createRedisCounterStore } from "./create-redis-counter-store.js";
export type { RedisCounterClient, RedisCounterStore, RedisCounterStoreOptions } from "./create-redis-counter-store.js";
export type { DailyBudgetOptions } from "./daily-budget.js";
export { humanizeModel, modelLabel } from "./model-label.js";
export type { RateLimitOptions } from "./rate-limit.js";
export { MissingApiKeyError, parseModelId, PROVIDER_KEYS, resolveModel } from "./resolve-model.js";
export type { ModelId, ModelProvider, ResolveModelOptions } from "./resolve-model.js";
export { toModelMessages } from "./to-model-messages.js";
export { toNodeListener } from "./to-node-listener.js";
export type { FetchHandler, NodeListener } from "./to-node-listener.js";
export { toToolLoopAgent } from "./to-tool-loop-agent.js";
export type { ToolLoopAgentOptions } from "./to-tool-loop-agent.js";
export type { TurnstileOptions } from "./verify-turnstile.js";
