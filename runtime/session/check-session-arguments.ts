import { isWebAgent } from "../agent/is-web-agent.js";
import type { AgentAdapter } from "./agent-adapter.js";
import type { UseAgentSessionOptions } from "./agent-session.js";
import { CONFIRM_TOOLS_POLICIES } from "./confirm-tools-policy.js";

/**
 * What `createAgentSession` (and `setOptions`) refuse, each with a
 * `TypeError` that names the fix: a value that is no adapter, an empty
 * storage key, an agent not made by `defineWebAgent`, an unknown
 * `confirmTools`, a `confirmTool` that is no function.
 */
export function checkSessionArguments(adapter: AgentAdapter, options: Pick<UseAgentSessionOptions, "storageKey" | "agent" | "confirmTools" | "confirmTool">): void {
  if (typeof adapter !== "object" || adapter === null || typeof adapter.run !== "function") {
    throw new TypeError("useAgentSession needs an AgentAdapter ({ id, label, run }) as its first argument.");
  }
  if (typeof adapter.id !== "string" || adapter.id === "") throw new TypeError("The adapter needs a non-empty string id.");
  const { storageKey, agent } = options;
  if (storageKey !== undefined && storageKey !== false && (typeof storageKey !== "string" || storageKey === "")) {
    throw new TypeError("storageKey must be a non-empty string, or false to keep the conversation in memory.");
  }
  if (agent !== undefined && !isWebAgent(agent)) throw new TypeError("agent must come from defineWebAgent().");
  const { confirmTools, confirmTool } = options;
  // The policies' list inline: tool-policy.ts stays in the lazily loaded loop.
  if ((confirmTools !== undefined && !CONFIRM_TOOLS_POLICIES.includes(confirmTools)) || (confirmTool !== undefined && typeof confirmTool !== "function")) {
    throw new TypeError('confirmTools must be "consequential", "destructive", "unannotated" or "all", and confirmTool a function, when given.');
  }
}
