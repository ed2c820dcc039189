/**
 * `@webmcp-agents/chat/core`: the WebMCP page layer, with no React and no
 * session, so a module the server also imports can define tools here. Define
 * and register tools, call one as the chat does, read the page's tools, and
 * follow what the agent does to them (agent events).
 *
 * The settle timings, the event emitter, `document.modelContext`'s own shape
 * and the error-text helpers stay inside: the session and the adapters use
 * them, a site does not.
 * @module
 */
export { defineWebTool } from "./define-web-tool.js";
export type { WebTool, WebToolAnnotations, WebToolConfig, WebToolContext } from "./define-web-tool.js";
export { registerWebTool } from "./register-web-tool.js";
export type { RegisterWebToolOptions } from "./register-web-tool.js";
export { readPageTools } from "./read-page-tools.js";
export { callModelContextTool } from "./call-model-context-tool.js";
export type { CallModelContextToolOptions } from "./call-model-context-tool.js";
export { onAgentEvent } from "./agent-events.js";
export type { AgentEvent } from "./agent-events.js";
export { isNativeModelContext } from "./model-context.js";
export { WebAgentsError } from "./web-agents-error.js";
export type { JSONSchema } from "./json-schema.js";
export type { ModelContextToolResult, ToolOutput } from "./tool-output.js";
