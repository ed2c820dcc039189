/**
 * `@webmcp-agents/chat/runtime`: the chat runtime for the browser, without
 * React, for any page (`widget/index.ts` adds the hooks and is the
 * `@webmcp-agents/chat` entry, re-exporting all of this). The session, the
 * cloud and local adapters, the model catalog and `defineModel`, the agent
 * helpers and the core's page-tool functions. The engines never load from
 * here: they load inside a Web Worker when a person picks a model.
 * @module
 */
export * from "./session/index.js";
export * from "./agent/index.js";
export { createCloudAdapter, turnstileHeaders } from "./adapters/cloud/index.js";
export type { CloudAdapterOptions, TurnstileHeadersOptions } from "./adapters/cloud/index.js";
export * from "./adapters/local/index.js";
export * from "./adapters/built-in/index.js";
export { createFallbackAdapter, DEVICE_FAILURE_CODES, STATUS_ORDER } from "./adapters/fallback/index.js";
export type { FallbackAdapter, FallbackAdapterOptions, FallbackNotice } from "./adapters/fallback/index.js";
export {
  callModelContextTool,
  defineWebTool,
  isNativeModelContext,
  onAgentEvent,
  readPageTools,
  registerWebTool,
  WebAgentsError,
} from "./core/index.js";
export type {
  AgentEvent,
  ModelContextToolResult,
  RegisterWebToolOptions,
  ToolOutput,
  WebTool,
  WebToolAnnotations,
  WebToolConfig,
  WebToolContext,
} from "./core/index.js";
