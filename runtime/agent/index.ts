/**
 * `@webmcp-agents/chat/agent`: define agents as plain frozen data that the
 * page, `vite.config.ts` and `api/chat.ts` all import. Nothing here touches
 * the DOM, React or the session at import time; `agent.invoke` loads the
 * browser loop on its first call.
 *
 * `isWebAgent` and the `ToolFilter` type stay inside: `defineWebAgent` does
 * the checking, and `WebAgentConfig["tools"]` spells the filter.
 */
export { AGENT_ID, DELEGATE_PREFIX, delegateToolName, isDelegateTool } from "./agent-id.js";
export { defineWebAgent } from "./define-web-agent.js";
export { delegateTool } from "./delegate-tool.js";
export { flattenWebAgents } from "./flatten-web-agents.js";
export { selectTools } from "./select-tools.js";
export type {
  WebAgent,
  WebAgentConfig,
  WebAgentInvokeOptions,
  WebAgentResult,
  WebAgentStep,
} from "./web-agent.js";
