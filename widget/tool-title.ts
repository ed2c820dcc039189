import { DELEGATE_PREFIX, isDelegateTool } from "../runtime/agent/agent-id.js";
import { pageToolTitle } from "../runtime/core/read-page-tools.js";
import { findRegisteredWebTool } from "../runtime/core/web-tool-registry.js";
import { DEFAULT_CHAT_LABELS, type ChatLabels } from "./chat-labels.js";

/**
 * A tool name in words, for a person: `go_to` -> "Go to", `addToCart` ->
 * "Add to cart", `list-orders` -> "List orders". Pure.
 */
export function titleFromName(name: string): string {
  const words = name
    .replace(/([a-z\d])([A-Z])/g, "$1 $2")
    .split(/[\s_\-.]+/)
    .filter(Boolean)
    .map((word) => word.toLowerCase());
  const text = words.join(" ");
  return text === "" ? name : text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * What the chat calls a tool: the `title` it was registered with on this
 * page (`defineWebTool({ title })`, else the title WebMCP reports for a
 * tool another script registered), else one derived from its name
 * (`titleFromName`); a `delegate_to_<id>` call is "<id> agent"
 * (`labels.agentTool`).
 */
export function toolTitle(name: string, labels: ChatLabels = DEFAULT_CHAT_LABELS): string {
  if (isDelegateTool(name)) return labels.agentTool(name.slice(DELEGATE_PREFIX.length));
  const title = (findRegisteredWebTool(name)?.title ?? pageToolTitle(name))?.trim();
  return title ? title : titleFromName(name);
}
