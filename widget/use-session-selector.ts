import { useMemo, useSyncExternalStore } from "react";
import type { AgentSession } from "../runtime/session/agent-session.js";
import type { AgentSessionStore } from "../runtime/session/create-agent-session.js";

/**
 * The part of a session `select` picks, kept current: the component
 * re-renders only when the picked value changes (`isEqual`, default
 * `Object.is`), not on every change to the session. Streamed text arrives at
 * most once per animation frame (the store batches it). `select` should
 * return a value from the session or a primitive; one that builds a new
 * object needs an `isEqual` that compares its content.
 *
 * @example
 * const status = useSessionSelector(store, (session) => session.status);
 */
export function useSessionSelector<Selected>(
  store: AgentSessionStore,
  select: (session: AgentSession) => Selected,
  isEqual: (a: Selected, b: Selected) => boolean = Object.is,
): Selected {
  const getSelection = useMemo(() => {
    let last: { session: AgentSession; selected: Selected } | undefined;
    return (): Selected => {
      const session = store.getSnapshot();
      if (last?.session === session) return last.selected;
      const selected = select(session);
      // Keep the earlier value when it is equal, so React sees no change.
      last = { session, selected: last && isEqual(last.selected, selected) ? last.selected : selected };
      return last.selected;
    };
  }, [store, select, isEqual]);
  return useSyncExternalStore(store.subscribe, getSelection, getSelection);
}
