import { selectTools } from "../agent/select-tools.js";
import { onAgentEvent, type AgentEvent } from "../core/agent-events.js";
import { watchPageTools } from "../core/watch-page-tools.js";
import type { AgentAdapter } from "./agent-adapter.js";
import type { AgentMessage } from "./agent-message.js";
import type { AgentSession, UseAgentSessionOptions } from "./agent-session.js";
import type { AgentSessionStore } from "./agent-session-store.js";
import { checkSessionArguments } from "./check-session-arguments.js";
import { messagesAt } from "./messages-at.js";
import { onNextFrame } from "./on-next-frame.js";
import { READY_STATUS, readAdapterStatus, sameAdapterStatus, UNREAD_STATUS } from "./read-adapter-status.js";
import { resumable } from "./resumable.js";
import { initialSessionState, joinTextDeltas, sessionReducer, type PartAction, type SessionAction, type SessionState } from "./session-reducer.js";
import { createConversationStorage, DEFAULT_STORAGE_KEY } from "./session-storage.js";
import type { ToolDescriptor } from "./tool-descriptor.js";

// The store's contract has a file of its own; its importers keep this path.
export type { AgentSessionStore, AgentSessionUpdate } from "./agent-session-store.js";

/** Options for {@link createAgentSession}: the hook's, and two for tests and headless runs. */
export interface CreateAgentSessionOptions extends UseAgentSessionOptions {
  /** Storage to keep the conversation in. Default `sessionStorage`; for tests. */
  storage?: Storage;
  /** No chat shows this session's held calls (`agent.invoke`): a held call `confirmTool` does not allow is declined. Default false. */
  headless?: boolean;
}

/** The agent loop's module: kept out of the first render, fetched once a session is watched (see attach). */
const loadAgentLoop = () => import("./run-agent-loop.js");
/** A turn across pages (turn-carry.ts): fetched once a session is watched too, before any page can go. */
const loadTurnCarry = () => import("./turn-carry.js");

/**
 * Creates a session: the conversation, its runs and its storage, for one
 * adapter on the current page. It implements "What a run does" in
 * the useAgentSession reference; React and other UIs subscribe to it.
 */
export function createAgentSession(initialAdapter: AgentAdapter, options: CreateAgentSessionOptions = {}): AgentSessionStore {
  checkSessionArguments(initialAdapter, options);
  let adapter = initialAdapter;
  let { agent } = options;
  // The tool policy's fields (confirmTools, confirmTool, headless) by the same names; a run reads them at each call.
  const gate: CreateAgentSessionOptions = { ...options };
  let pageTools: ToolDescriptor[] = [];
  const storage = createConversationStorage(options.storageKey ?? DEFAULT_STORAGE_KEY, options.storage);
  const listeners = new Set<() => void>();

  let state: SessionState = sessionReducer(initialSessionState, { type: "restore", messages: storage.load() });
  // The last page of the site went mid-turn (a tool navigated, a link): this page continues the
  // turn once watched (turn-carry.ts), unless the person sends, retries or resets first.
  let personActed = false;
  // The turn the last page left, while this session goes on with it and the person has not acted
  // since: a page that gives the chat its adapter (or agent) after it started continues the turn
  // with it rather than ending it (setOptions).
  let carriedTurn = false;
  // Streamed text waits here, joined, until the frame or a reader needs it: applying a
  // part copies the message list, so one reducer call a frame, not one a token.
  let pending: PartAction | undefined;
  const flush = () => {
    if (!pending) return;
    const action = pending;
    pending = undefined;
    state = sessionReducer(state, action);
  };
  /** The state with the waiting text applied: what every reader of the conversation sees. */
  const current = (): SessionState => {
    flush();
    return state;
  };
  let tools: ToolDescriptor[] = [];
  // Not read here: the local adapter's first status() starts its engine
  // worker, and a store may be created during a render (twice in StrictMode).
  let adapterStatus = adapter.status ? UNREAD_STATUS : READY_STATUS;
  let controller: AbortController | undefined;
  let snapshot: AgentSession;

  const build = (): AgentSession => ({
    messages: current().messages,
    status: state.status,
    error: state.error,
    usage: state.usage,
    tools,
    adapterStatus,
    agent,
    send,
    stop,
    retry,
    reset,
  });
  let cancelFrame: (() => void) | undefined;
  const emit = () => {
    cancelFrame?.();
    cancelFrame = undefined;
    snapshot = build();
    for (const listener of [...listeners]) listener();
  };
  // Streamed text reaches the UI once per frame, not once per token.
  const emitSoon = () => {
    cancelFrame ??= onNextFrame(() => {
      cancelFrame = undefined;
      emit();
    });
  };
  const dispatch = (action: SessionAction) => {
    // A delta the reducer would apply now (this run's, while streaming) waits; anything else
    // sees the waiting text first, so a finish, a Stop or a newer run's part keeps its order.
    const quiet = action.type === "part" && action.part.type === "text-delta" && action.runId === state.runId && state.status === "streaming";
    const joined = quiet && pending ? joinTextDeltas(pending, action) : undefined;
    if (!joined) flush();
    if (quiet) {
      // A copy: an adapter may reuse the part object it yielded.
      pending = joined ?? { ...action, part: { ...action.part } };
      return emitSoon();
    }
    const next = sessionReducer(state, action);
    if (next === state) return;
    state = next;
    storage.save(state.messages);
    emit();
  };
  const setTools = (next: ToolDescriptor[]) => {
    tools = next;
    emit();
  };

  const start = (runId: string, messages: AgentMessage[]) => {
    controller?.abort();
    const run = new AbortController();
    controller = run;
    const context = {
      adapter,
      runId,
      signal: run.signal,
      dispatch,
      // Waiting text never changes the run, so this per-part check leaves it waiting.
      isCurrent: () => state.runId === runId,
      onTools: setTools,
      conversation: (path: readonly string[]) => messagesAt(current().messages, path),
      gate,
    };
    // The loop loads with the first message, not with the page (the first render's budget).
    void loadAgentLoop()
      .then(({ runAgentLoop }) => runAgentLoop(context, agent, messages))
      .catch(() => {
        // Its code could not load (a deploy changed the files, the network dropped): the run ends, with a next step.
        if (context.isCurrent()) dispatch({ type: "part", runId, part: { type: "error", error: "The chat could not load. Check your connection, then try again.", code: "network" } });
      })
      .finally(() => {
        if (controller === run) controller = undefined;
      });
  };

  function send(text: string): void {
    const trimmed = typeof text === "string" ? text.trim() : "";
    if (trimmed === "" || state.status === "streaming") return;
    personActed = true;
    carriedTurn = false;
    const runId = crypto.randomUUID();
    const message: AgentMessage = { id: crypto.randomUUID(), role: "user", parts: [{ type: "text", text: trimmed }] };
    dispatch({ type: "send", runId, message });
    start(runId, state.messages);
  }

  function retry(): void {
    retryTurn(false);
  }

  /** The person's Retry, or (carried) the going on of the turn the last page left (turn-carry.ts). */
  function retryTurn(carried: boolean): void {
    personActed = true;
    carriedTurn = carried;
    if (state.status === "streaming" || !current().messages.some((message) => message.role === "user")) return;
    resume();
  }

  /** Goes on from the last finished call; a run streaming is replaced, and its parts dropped. */
  function resume(): void {
    const runId = crypto.randomUUID();
    dispatch({ type: "retry", runId, messages: resumable(state.messages) });
    start(runId, state.messages);
  }

  function stop(): void {
    controller?.abort();
    controller = undefined;
    dispatch({ type: "stop" });
  }

  function reset(): void {
    personActed = true;
    carriedTurn = false;
    stop();
    dispatch({ type: "reset" });
    storage.clear();
  }

  // Agent events mark the call they name (by id; by tool name when they name
  // none) parked or running again. Another chat's calls match nothing here.
  const onEvent = (event: AgentEvent) => {
    const runId = state.runId;
    if (!runId) return;
    const call = { runId, tool: event.tool, ...(event.callId !== undefined && { callId: event.callId }) };
    if (event.type === "park") {
      dispatch({ type: "tool-state", ...call, state: "awaiting-confirmation", prompt: event.prompt });
    } else if (event.type === "start" || event.type === "resume") {
      dispatch({ type: "tool-state", ...call, state: "running" });
    }
  };
  const onStatus = () => {
    const next = readAdapterStatus(adapter);
    if (sameAdapterStatus(next, adapterStatus)) return;
    adapterStatus = next;
    emit();
  };
  const showTools = () => {
    try {
      setTools(selectTools(agent, pageTools));
    } catch (error) {
      console.error("[web-agents] The agent's tools filter failed:", error);
    }
  };
  let unwatchAdapter: (() => void) | undefined;

  // The session watches the page, the core's events and the adapter only
  // while someone listens, so a component that unmounts (or a StrictMode
  // double mount) leaves nothing behind, and a later subscribe picks up again.
  let detach: (() => void) | undefined;
  const attach = () => {
    unwatchAdapter = adapter.subscribe?.(onStatus);
    const stops = [
      onAgentEvent(onEvent),
      () => unwatchAdapter?.(),
      watchPageTools((tools) => {
        pageTools = tools;
        showTools();
      }),
    ];
    // The first read of the adapter's status, here rather than at creation.
    // Told to nobody: the new subscriber reads the snapshot after subscribing
    // (as useSyncExternalStore does), and must not be called back from inside
    // its own subscribe call.
    const status = readAdapterStatus(adapter);
    if (!sameAdapterStatus(status, adapterStatus)) {
      adapterStatus = status;
      snapshot = build();
    }
    // The loop's code, fetched once the page is up rather than on the first message: an
    // on-device chat must answer a first message sent after the network went away.
    const prefetch = setTimeout(() => void loadAgentLoop().catch(() => {}), 0);
    const carrying = new AbortController();
    const session = {
      streaming: () => state.status === "streaming",
      messages: () => current().messages,
      acted: () => personActed,
      retry: () => retryTurn(true),
    };
    void loadTurnCarry()
      .then(({ carryTurn }) => carrying.signal.aborted || stops.push(carryTurn(options.storageKey ?? DEFAULT_STORAGE_KEY, options.storage, session)))
      .catch(() => {});
    return () => {
      clearTimeout(prefetch);
      carrying.abort();
      stops.forEach((stop) => stop?.());
    };
  };

  snapshot = build();
  return {
    getSnapshot: () => snapshot,
    subscribe(listener) {
      listeners.add(listener);
      detach ??= attach();
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0) {
          detach?.();
          detach = undefined;
        }
      };
    },
    send,
    stop,
    retry,
    reset,
    get adapter() {
      return adapter;
    },
    setOptions(next) {
      checkSessionArguments(next.adapter ?? adapter, next);
      const { adapter: _adapter, agent: _agent, ...policy } = next;
      Object.assign(gate, policy);
      const newAgent = "agent" in next && next.agent !== agent;
      if ((!next.adapter || next.adapter === adapter) && !newAgent) return;
      // A turn the last page left, still streaming or failed on the adapter the chat had before the page gave its own.
      const continueTurn = carriedTurn && state.status !== "idle";
      if (!continueTurn) stop();
      // The last run's failure was the old adapter's or agent's: the conversation goes on, idle.
      if (!continueTurn && state.status === "error") dispatch({ type: "restore", messages: current().messages });
      if (newAgent) {
        agent = next.agent;
        showTools();
      }
      if (next.adapter && next.adapter !== adapter) {
        adapter = next.adapter;
        unwatchAdapter?.();
        // Watched only while someone listens (attach), and read there first.
        unwatchAdapter = detach ? adapter.subscribe?.(onStatus) : undefined;
        adapterStatus = !adapter.status ? READY_STATUS : detach ? readAdapterStatus(adapter) : UNREAD_STATUS;
      }
      if (continueTurn) resume();
      emit();
    },
    dispose() {
      stop();
      cancelFrame?.();
      cancelFrame = undefined;
      detach?.();
      detach = undefined;
      listeners.clear();
    },
  };
}
