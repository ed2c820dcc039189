import { getModelContext, type ModelContext } from "./model-context.js";

/** How long to wait for the page's tools to stop changing. */
export interface SettleTiming {
  /** Settled after this many milliseconds without a `toolchange` event. */
  readonly quietMs: number;
  /** Give up waiting after this many milliseconds in all. */
  readonly maxMs: number;
}

/** Before reading the tools for a run: 100 ms quiet, at most 1.5 s (useAgentSession, step 1). */
export const TOOLS_SETTLE: SettleTiming = Object.freeze({ quietMs: 100, maxMs: 1500 });

/** After a tool call, which may navigate or open a form: 150 ms quiet, at most 1.5 s (useAgentSession, step 3). */
export const AFTER_CALL_SETTLE: SettleTiming = Object.freeze({ quietMs: 150, maxMs: 1500 });

/**
 * Resolves once the page's tools have settled: no `toolchange` event on
 * `document.modelContext` for `quietMs`, or `maxMs` after the call, whichever
 * comes first. Resolves at once when `signal` aborts (now or later) and
 * where there is no WebMCP. Never rejects. Timed with `setTimeout`.
 */
export function waitForToolsToSettle(options: SettleTiming & { signal?: AbortSignal }): Promise<void> {
  const { quietMs, maxMs, signal } = options;
  return new Promise<void>((resolve) => {
    if (signal?.aborted) return resolve();
    let context: ModelContext;
    try {
      context = getModelContext();
    } catch {
      return resolve();
    }
    let quiet = setTimeout(done, quietMs);
    const max = setTimeout(done, maxMs);
    function onChange() {
      clearTimeout(quiet);
      quiet = setTimeout(done, quietMs);
    }
    function done() {
      clearTimeout(quiet);
      clearTimeout(max);
      context.removeEventListener("toolchange", onChange);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    context.addEventListener("toolchange", onChange);
    signal?.addEventListener("abort", done, { once: true });
  });
}
