import { useEffect, useRef, useState, type MutableRefObject } from "react";
import type { AgentAdapter } from "../runtime/session/agent-adapter.js";
import type { UseAgentSessionOptions } from "../runtime/session/agent-session.js";
import { createAgentSession, type AgentSessionStore } from "../runtime/session/create-agent-session.js";

interface Held {
  adapter: AgentAdapter;
  storageKey: UseAgentSessionOptions["storageKey"];
  agent: UseAgentSessionOptions["agent"];
  confirmTools: UseAgentSessionOptions["confirmTools"];
  store: AgentSessionStore;
}

type ConfirmToolRef = MutableRefObject<UseAgentSessionOptions["confirmTool"]>;

const hold = (adapter: AgentAdapter, { storageKey, agent, confirmTools }: UseAgentSessionOptions, confirmTool: ConfirmToolRef): Held => ({
  adapter,
  storageKey,
  agent,
  confirmTools,
  store: createAgentSession(adapter, {
    ...(storageKey !== undefined && { storageKey }),
    ...(agent && { agent }),
    ...(confirmTools !== undefined && { confirmTools }),
    // The latest render's confirmTool, without a new store per render.
    confirmTool: (request) => confirmTool.current?.(request),
  }),
});

/**
 * The session store for `adapter` and `options`, kept in state: one store
 * per component for as long as the adapter, `storageKey` and `agent` stay
 * the same, a new one when any changes. Creating a store calls nothing on
 * the adapter or the page, so a render (StrictMode renders twice) starts
 * nothing; whoever subscribes (`useSessionSelector`) starts the watching,
 * in an effect. Unmounting stops the run.
 */
export function useAgentSessionStore(adapter: AgentAdapter, options: UseAgentSessionOptions = {}): AgentSessionStore {
  const { storageKey, agent, confirmTools } = options;
  const confirmTool = useRef(options.confirmTool);
  confirmTool.current = options.confirmTool;
  const [held, setHeld] = useState(() => hold(adapter, options, confirmTool));
  let { store } = held;
  if (held.adapter !== adapter || held.storageKey !== storageKey || held.agent !== agent || held.confirmTools !== confirmTools) {
    // React's "adjust state while rendering": the render restarts with the new store at once.
    const next = hold(adapter, options, confirmTool);
    store = next.store;
    setHeld(next);
  }
  useEffect(() => () => store.stop(), [store]);
  return store;
}
