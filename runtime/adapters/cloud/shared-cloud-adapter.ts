import type { AgentAdapter } from "../../session/agent-adapter.js";
import { createCloudAdapter } from "./create-cloud-adapter.js";

let shared: AgentAdapter | undefined;

/**
 * The one `createCloudAdapter()` that `<AgentChat>`, `useAgentChat`,
 * `useWebAgent` and `agent.invoke` share when given no adapter, so they
 * share its status check and session. Created on first use.
 */
export function sharedCloudAdapter(): AgentAdapter {
  shared ??= createCloudAdapter();
  return shared;
}
