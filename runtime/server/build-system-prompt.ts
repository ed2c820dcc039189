import type { WebAgent } from "../agent/index.js";

/**
 * What every cloud step starts with: the page's tools run in the person's
 * browser, one at a time, so the model should act through them rather than
 * describe what it would do.
 */
export const BASE_SYSTEM_PROMPT = [
  "You are the assistant on a website. You act on the page the person has open through its tools:",
  "each call runs in their browser, one at a time, and you see its result before your next step.",
  "Use the tools to look things up and to do what the person asks; don't guess what a page shows.",
  "When a tool fails, say so plainly and try another way or ask. Answer briefly, in the person's language.",
].join(" ");

/**
 * The system prompt for one step: {@link BASE_SYSTEM_PROMPT}, then the
 * handler's `system` text, then the agent's instructions under
 * "About this site". It stays byte-identical across the steps of a
 * conversation, so the provider's prompt cache keeps hitting.
 */
export function buildSystemPrompt(options: { system?: string; agent?: WebAgent }): string {
  const sections = [BASE_SYSTEM_PROMPT];
  const system = options.system?.trim();
  if (system) sections.push(system);
  if (options.agent !== undefined && options.agent.instructions.length > 0) {
    sections.push(`About this site:\n${options.agent.instructions.join("\n")}`);
  }
  return sections.join("\n\n");
}
