import { useEffect, useLayoutEffect, useRef, useState, type MutableRefObject } from "react";
import type { AgentAdapter } from "../runtime/session/agent-adapter.js";
import type { UseAgentSessionOptions } from "../runtime/session/agent-session.js";
import { createAgentSession, type AgentSessionStore } from "../runtime/session/create-agent-session.js";

interface Held {
  storageKey: UseAgentSessionOptions["storageKey"];
  store: AgentSessionStore;
}

type ConfirmToolRef = MutableRefObject<UseAgentSessionOptions["confirmTool"]>;

const hold = (adapter: AgentAdapter, { storageKey, agent, confirmTools }: UseAgentSessionOptions, confirmTool: ConfirmToolRef): Held => ({
  storageKey,
  store: createAgentSession(adapter, {
    ...(storageKey !== undefined && { storageKey }),
    ...(agent && { agent }),
    ...(confirmTools !== undefined && { confirmTools }),
    // The latest render's confirmTool, without a new store per render.
    confirmTool: (request) => confirmTool.current?.(request),
  }),
});

/**
 * Keeps `store` on the render's adapter, agent and tool policy
 * (`store.setOptions`), before the browser paints: the conversation stays.
 */
export function useSessionOptions(store: AgentSessionStore, adapter: AgentAdapter, { agent, confirmTools }: UseAgentSessionOptions): void {
  useLayoutEffect(() => {
    store.setOptions({ adapter, agent, ...(confirmTools !== undefined && { confirmTools }) });
  }, [store, adapter, agent, confirmTools]);
}

/**
 * The session store for `adapter` and `options`, kept in state: one store
 * per component for as long as `storageKey` stays the same (another key is
 * another conversation: a new store). A new adapter, agent or
 * `confirmTools` is swapped into the same store (`setOptions`), so the
 * conversation carries over, stored or not. Creating a store calls nothing
 * on the adapter or the page, so a render (StrictMode renders twice)
 * starts nothing; whoever subscribes (`useSessionSelector`) starts the
 * watching, in an effect. Unmounting stops the run.
 */
export function useAgentSessionStore(adapter: AgentAdapter, options: UseAgentSessionOptions = {}): AgentSessionStore {
  const confirmTool = useRef(options.confirmTool);
  confirmTool.current = options.confirmTool;
  const [held, setHeld] = useState(() => hold(adapter, options, confirmTool));
  let { store } = held;
  if (held.storageKey !== options.storageKey) {
    // React's "adjust state while rendering": the render restarts with the new store at once.
    const next = hold(adapter, options, confirmTool);
    store = next.store;
    setHeld(next);
  }
  useSessionOptions(store, adapter, options);
  useEffect(() => () => store.stop(), [store]);
  return store;
}
