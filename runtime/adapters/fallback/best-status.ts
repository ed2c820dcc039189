import type { AdapterStatus, AgentAdapter } from "../../session/agent-adapter.js";

const READY: AdapterStatus = Object.freeze({ state: "ready" });

/**
 * How close each state is to answering, best first: `ready`, then `loading`
 * (a model being read, or a connection check), `downloading`,
 * `needs-download`, `error` (Try again may help), `unavailable`.
 */
export const STATUS_ORDER: readonly AdapterStatus["state"][] = ["ready", "loading", "downloading", "needs-download", "error", "unavailable"];

/** An adapter's status; one without `status()` is always ready. The same object the adapter returned. */
export const statusOf = (adapter: AgentAdapter): AdapterStatus => adapter.status?.() ?? READY;

/**
 * The adapter whose status a fallback adapter reports: the first in order
 * that is ready, else the one whose state comes first in `STATUS_ORDER`
 * (the earlier adapter on a tie).
 */
export function leadAdapter(adapters: readonly AgentAdapter[]): { adapter: AgentAdapter; status: AdapterStatus } {
  let best: { adapter: AgentAdapter; status: AdapterStatus } | undefined;
  for (const adapter of adapters) {
    const status = statusOf(adapter);
    if (status.state === "ready") return { adapter, status };
    if (!best || STATUS_ORDER.indexOf(status.state) < STATUS_ORDER.indexOf(best.status.state)) best = { adapter, status };
  }
  return best!;
}
