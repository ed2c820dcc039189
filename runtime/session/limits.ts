/**
 * The numbers that bound a conversation. Exported so a custom UI or adapter
 * applies the same ones.
 */
export const LIMITS = Object.freeze({
  /** Messages sent to a model per request; past this the oldest are dropped (create-cloud-adapter.txt). */
  messages: 160,
  /** Messages kept in sessionStorage (use-agent-session.txt). */
  storedMessages: 60,
  /** Characters of a tool result's text kept when it is recorded (create-cloud-adapter.txt). */
  toolResultText: 4000,
  /** How deep sub-agents may delegate to their own sub-agents. */
  delegateDepth: 4,
  /** Tool steps per user message when neither the agent nor the adapter sets `maxSteps` (create-cloud-adapter.txt); one more step sums up. */
  maxSteps: 8,
});
