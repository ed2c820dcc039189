import type { AgentEvent } from "../runtime/core/agent-events.js";

/**
 * A tool acting on an element, as the cursor shows it: the core's `act`
 * agent event, which a tool emits with `context.pointAt(target, { action, text })`.
 * `point`: about to use `target`; `click`: clicked it; `type`: typed `text`.
 */
export type AgentActEvent = Extract<AgentEvent, { type: "act" }>;
