import type { WebAgent } from "./web-agent.js";

/**
 * The marker every agent from `defineWebAgent` carries (non-enumerable, so a
 * spread copy is not an agent). A registered symbol, so that two copies of
 * this module (source and `dist` in development) recognise each other's agents.
 */
export const WEB_AGENT = Symbol.for("webmcp-agents.web-agent");

/**
 * True when `value` came from `defineWebAgent`, from any copy of this module.
 * Checked structurally, never with `instanceof`.
 */
export function isWebAgent(value: unknown): value is WebAgent {
  return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[WEB_AGENT] === true;
}
