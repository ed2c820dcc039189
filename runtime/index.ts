/**
 * `@webmcp-agents/chat/runtime`: the chat runtime for the browser, without
 * React, for any page (`widget/index.ts` adds the hooks and is the
 * `@webmcp-agents/chat` entry, re-exporting all of this). The adapter
 * contract, the session (`createAgentSession`), the cloud, local, built-in
 * and fallback adapters, the model catalogs and `defineModel`. Tools come
 * from `@webmcp-agents/chat/core` and agents from `@webmcp-agents/chat/agent`.
 * The engines never load from here: they load inside a Web Worker when a
 * person picks a model.
 *
 * Only what a site writes against is exported; the adapters' internals and
 * the catalog's schema helpers stay inside. `sessionReducer` is out in the
 * open because the useAgentSession page names it: every stream part goes
 * through it (its state and action types are its parameters).
 * @module
 */
export type { AdapterStatus, AgentAdapter, AgentRunRequest, ModelChoice } from "./session/agent-adapter.js";
export type { AgentMessage, AgentPart } from "./session/agent-message.js";
export type { AgentStreamPart, StepUsage } from "./session/agent-stream-part.js";
export type { ToolCallState } from "./session/tool-call-state.js";
export type { ToolDescriptor } from "./session/tool-descriptor.js";
export type { ToolOutput } from "./core/tool-output.js";
export type { AgentSession, UseAgentSessionOptions } from "./session/agent-session.js";
export type { SessionError } from "./session/session-error.js";
export { createAgentSession } from "./session/create-agent-session.js";
export type { AgentSessionStore, AgentSessionUpdate, CreateAgentSessionOptions } from "./session/create-agent-session.js";
export { initialSessionState, sessionReducer } from "./session/session-reducer.js";
export { resumable } from "./session/resumable.js";
export { LIMITS } from "./session/limits.js";
export type { ConfirmTool, ConfirmToolsPolicy } from "./session/tool-policy.js";
export { createCloudAdapter, turnstileHeaders } from "./adapters/cloud/index.js";
export type { CloudAdapterOptions, TurnstileHeadersOptions } from "./adapters/cloud/index.js";
export { createLocalAdapter } from "./adapters/local/create-local-adapter.js";
export type { LocalAdapter } from "./adapters/local/create-local-adapter.js";
export type { LocalAdapterOptions } from "./adapters/local/local-adapter-options.js";
export { QWEN3_CATALOG, QWEN35_CATALOG, QWEN_CATALOG } from "../models/catalog.js";
export type { CatalogEntry, CatalogFile, CatalogVariant } from "../models/catalog-schema.js";
export { defineModel } from "../models/define-model.js";
export type { ModelDefinition, ModelVariantDefinition } from "../models/define-model.js";
export { createBuiltInAdapter } from "./adapters/built-in/create-built-in-adapter.js";
export type { BuiltInAdapter } from "./adapters/built-in/create-built-in-adapter.js";
export type { BuiltInAdapterOptions } from "./adapters/built-in/built-in-adapter-options.js";
export { createFallbackAdapter, DEVICE_FAILURE_CODES } from "./adapters/fallback/index.js";
export type { FallbackAdapter, FallbackAdapterOptions, FallbackNotice } from "./adapters/fallback/index.js";
