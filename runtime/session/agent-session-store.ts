import type { AgentAdapter } from "./agent-adapter.js";
import type { AgentSession, UseAgentSessionOptions } from "./agent-session.js";

/**
 * A framework-agnostic session: what `useAgentSession` binds to with
 * `useSyncExternalStore`. Creating one calls nothing on the adapter or the
 * page (safe in a render); the first `subscribe` reads the adapter's status
 * and starts watching the adapter, the page's tools and the agent events.
 */
export interface AgentSessionStore {
  /** The current session; the same object until listeners are told of a change. */
  getSnapshot(): AgentSession;
  /**
   * Called after every change, except streamed text: `text-delta` parts are
   * told at most once per animation frame (and joined until then, so a token
   * costs the same in a long conversation), and any other change (a tool
   * call, the finish, an error, Stop) tells them at once, with the text so
   * far. Returns an unsubscribe function.
   */
  subscribe(listener: () => void): () => void;
  send(text: string): void;
  stop(): void;
  retry(): void;
  reset(): void;
  /** Abort the run and stop watching the page and the adapter (a component unmounting). */
  dispose(): void;
  /** The adapter the session runs on now. */
  readonly adapter: AgentAdapter;
  /**
   * Changes the adapter, the agent or the tool policy of this session, as
   * TanStack's `setOptions` does, keeping the conversation: a field given
   * replaces the current one (`agent: undefined` removes the agent), a field
   * left out stays. Changing the adapter or the agent stops the run in
   * progress and clears the last run's error; the next message runs on the
   * new one. The storage key is the
   * conversation itself and cannot change: make another session for another.
   */
  setOptions(options: AgentSessionUpdate): void;
}

/** What {@link AgentSessionStore.setOptions} can change. */
export interface AgentSessionUpdate extends Pick<UseAgentSessionOptions, "agent" | "confirmTools" | "confirmTool"> {
  adapter?: AgentAdapter;
}
