import { registerWebTool } from "../runtime/core/register-web-tool.js";
import type { WebTool } from "../runtime/core/define-web-tool.js";

// The last registration started for each tool name, so a remount (StrictMode,
// hot reload) registers only after the registration it replaces has settled.
const LAST = new Map<string, Promise<void>>();

/**
 * Registers `tool` until `signal` aborts, as a component's tool: after any
 * earlier registration of the same name from this module has settled (its
 * signal aborted first, as on unmount), so a remount never meets its own
 * previous registration as a duplicate. Never rejects: a failure (a tool of
 * that name that someone else registered) is reported with `console.error`,
 * since an effect has nobody to throw to.
 */
export function registerWebToolInTurn(tool: WebTool, signal: AbortSignal): Promise<void> {
  const previous = LAST.get(tool.name) ?? Promise.resolve();
  const registration = previous
    .then(() => registerWebTool(tool, { signal }))
    .catch((error: unknown) => {
      if (!signal.aborted) console.error(`[web-agents] Could not register the tool "${tool.name}":`, error);
    });
  LAST.set(tool.name, registration);
  void registration.then(() => {
    if (LAST.get(tool.name) === registration) LAST.delete(tool.name);
  });
  return registration;
}
