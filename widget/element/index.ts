/**
 * `@webmcp-agents/chat/element`: `<web-agents-chat>` for a page with no React
 * and no bundler. Importing it defines the element (once); the file brings
 * React with it. It also exports what such a page's own script needs to
 * register tools and build adapters and agents, from the same file.
 */
import { defineWebAgentsChat } from "./web-agents-chat-element.js";

export { defineWebAgentsChat, WebAgentsChatElement } from "./web-agents-chat-element.js";
export type { WebAgentsChatEventMap } from "./chat-events.js";
export { createCloudAdapter } from "../../runtime/adapters/cloud/index.js";
export { createLocalAdapter, defineModel } from "../../runtime/adapters/local/index.js";
export { createBuiltInAdapter } from "../../runtime/adapters/built-in/index.js";
export { defineWebAgent } from "../../runtime/agent/index.js";
export { defineWebTool, registerWebTool } from "../../runtime/core/index.js";

defineWebAgentsChat();

declare global {
  interface HTMLElementTagNameMap {
    "web-agents-chat": import("./web-agents-chat-element.js").WebAgentsChatElement;
  }
}
