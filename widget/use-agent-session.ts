import { useEffect, useMemo, useSyncExternalStore } from "react";
import type { AgentAdapter } from "../runtime/session/agent-adapter.js";
import type { AgentSession, UseAgentSessionOptions } from "../runtime/session/agent-session.js";
import { createAgentSession } from "../runtime/session/create-agent-session.js";

/**
 * A conversation with one adapter about the current page, in the chat's own
 * message shape (use-agent-session.txt). A thin binding: the session store
 * from `createAgentSession` does the work; this subscribes to it. A new store
 * is made when the adapter, `storageKey` or `agent` changes; unmounting
 * aborts the run.
 */
export function useAgentSession(adapter: AgentAdapter, options: UseAgentSessionOptions = {}): AgentSession {
  const { storageKey, agent } = options;
  const store = useMemo(
    () => createAgentSession(adapter, { ...(storageKey !== undefined && { storageKey }), ...(agent && { agent }) }),
    [adapter, storageKey, agent],
  );
  useEffect(() => () => store.stop(), [store]);
  return useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
}
