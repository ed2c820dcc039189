import type { AdapterStatus, AgentAdapter } from "./agent-adapter.js";

/** The status of an adapter without `status()`. */
export const READY_STATUS: AdapterStatus = Object.freeze({ state: "ready" });
/** An adapter's status before the session's first subscriber reads it (a read may start its engine). */
export const UNREAD_STATUS: AdapterStatus = Object.freeze({ state: "loading" });

/** The adapter's status as a session shows it: `ready` without `status()`, an `error` status where `status()` throws. */
export function readAdapterStatus(adapter: AgentAdapter): AdapterStatus {
  try {
    return adapter.status?.() ?? READY_STATUS;
  } catch (error) {
    return { state: "error", error: error instanceof Error ? error.message : String(error) };
  }
}

/** Whether two statuses read the same (listeners are told only of a change). */
export const sameAdapterStatus = (a: AdapterStatus, b: AdapterStatus) => JSON.stringify(a) === JSON.stringify(b);
