/**
 * The chat runtime for the browser, without React (`widget/index.ts` adds the
 * hooks and is the `@webmcp-agents/chat` entry). The engines never load from
 * here: they load inside a Web Worker when a person picks a model.
 * @module
 */
export * from "./session/index.js";
export * from "./agent/index.js";
export { createCloudAdapter, turnstileHeaders } from "./adapters/cloud/index.js";
export type { CloudAdapterOptions, TurnstileHeadersOptions } from "./adapters/cloud/index.js";
export * from "./adapters/local/index.js";
export {
  callModelContextTool,
  defineWebTool,
  onAgentEvent,
  registerWebTool,
  WebAgentsError,
} from "./core/index.js";
export type { AgentEvent, ModelContextToolResult, ToolOutput, WebTool, WebToolConfig } from "./core/index.js";
