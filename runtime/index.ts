/**
 * `@webmcp-agents/chat`: the chat runtime for the browser. The React widget
 * and the adapters are added here as they land; the engines never load from
 * this entry (they load inside a Web Worker when a person picks a model).
 * @module
 */
export * from "./session/index.js";
export * from "./agent/index.js";
export {
  callModelContextTool,
  defineWebTool,
  onAgentEvent,
  registerWebTool,
  WebAgentsError,
} from "./core/index.js";
export type { AgentEvent, ModelContextToolResult, ToolOutput, WebTool, WebToolConfig } from "./core/index.js";
