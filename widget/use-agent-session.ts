import type { AgentAdapter } from "../runtime/session/agent-adapter.js";
import type { AgentSession, UseAgentSessionOptions } from "../runtime/session/agent-session.js";
import { useAgentSessionStore } from "./use-agent-session-store.js";
import { useSessionSelector } from "./use-session-selector.js";

const whole = (session: AgentSession) => session;

/**
 * A conversation with one adapter about the current page, in the chat's own
 * message shape (the useAgentSession reference). A thin binding: the session store
 * from `createAgentSession` does the work; this subscribes to all of it
 * (streamed text at most once per animation frame). A new store is made
 * when the adapter, `storageKey` or `agent` changes; unmounting aborts the
 * run. Nothing runs during render: the adapter's status is read once the
 * component has mounted.
 */
export function useAgentSession(adapter: AgentAdapter, options: UseAgentSessionOptions = {}): AgentSession {
  return useSessionSelector(useAgentSessionStore(adapter, options), whole);
}
