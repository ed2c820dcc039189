/**
 * The numbers that bound a conversation. Exported so a custom UI or adapter
 * applies the same ones.
 */
export const LIMITS = Object.freeze({
  /** Messages sent to a model per request; past this the oldest are dropped (the createCloudAdapter reference). */
  messages: 160,
  /** Messages kept in sessionStorage (the useAgentSession reference). */
  storedMessages: 60,
  /** Characters of a tool result's text kept when it is recorded (the createCloudAdapter reference). */
  toolResultText: 4000,
  /** How deep sub-agents may delegate to their own sub-agents. */
  delegateDepth: 4,
  /** Tool steps per user message when neither the agent nor the adapter sets `maxSteps` (the createCloudAdapter reference); one more step sums up. */
  maxSteps: 8,
});
