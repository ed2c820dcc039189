import type { AgentAdapter } from "../runtime/session/agent-adapter.js";

// One preparation (a model download) per adapter, kept beside the adapter
// rather than in a component, so Cancel still reaches a download started
// before the chat remounted (a route change).
const RUNNING = new WeakMap<AgentAdapter, AbortController>();

/**
 * Starts `adapter.prepare(signal)` unless one is already running for it.
 * Resolves when it ends: to `undefined` when it succeeded or was cancelled,
 * to the error's message when it failed. Never rejects.
 */
export async function startPreparing(adapter: AgentAdapter): Promise<string | undefined> {
  if (!adapter.prepare || RUNNING.has(adapter)) return undefined;
  const controller = new AbortController();
  RUNNING.set(adapter, controller);
  try {
    await adapter.prepare(controller.signal);
    return undefined;
  } catch (error) {
    if (controller.signal.aborted) return undefined;
    return error instanceof Error ? error.message : String(error);
  } finally {
    if (RUNNING.get(adapter) === controller) RUNNING.delete(adapter);
  }
}

/** Aborts the preparation running for `adapter`, if any (the download card's Cancel). */
export function cancelPreparing(adapter: AgentAdapter): void {
  const controller = RUNNING.get(adapter);
  RUNNING.delete(adapter);
  controller?.abort(new DOMException("The person cancelled the download.", "AbortError"));
}
