import { useCallback, useLayoutEffect, useMemo, useState } from "react";
import { sharedCloudAdapter } from "../runtime/adapters/cloud/shared-cloud-adapter.js";
import type { AgentAdapter, ModelChoice } from "../runtime/session/agent-adapter.js";
import type { AgentSession, UseAgentSessionOptions } from "../runtime/session/agent-session.js";
import type { AgentSessionStore } from "../runtime/session/create-agent-session.js";
import { DEFAULT_STORAGE_KEY } from "../runtime/session/session-storage.js";
import { adapterChoiceKey, createAdapterChoiceStorage } from "./adapter-choice-storage.js";
import { cancelPreparing, startPreparing } from "./adapter-preparation.js";
import { useAdapterModels } from "./use-adapter-models.js";
import { useAgentSessionStore } from "./use-agent-session-store.js";
import { useSessionSelector } from "./use-session-selector.js";

/** What `useAgentChat` takes. */
export interface UseAgentChatOptions extends UseAgentSessionOptions {
  /**
   * The adapter to use, or, with `adapters`, the one chosen first. Default:
   * the first of `adapters`, else the one shared `createCloudAdapter()`.
   */
  adapter?: AgentAdapter;
  /**
   * The adapters the person can switch between (an adapter switcher shows
   * when there are several). Default: `[adapter]`. The choice is remembered
   * by adapter id in localStorage under `"<storageKey>:adapter"`
   * (`"web-agents:chat:adapter"` by default; not remembered when
   * `storageKey` is `false`).
   */
  adapters?: readonly AgentAdapter[];
  /**
   * A session made with `createAgentSession`, to render instead of one of
   * its own: its conversation and storage are the chat's. The adapter the
   * person picks is swapped into it (`session.setOptions`), and so are
   * `agent`, `confirmTools` and `confirmTool` when given. Default `[session.adapter]`
   * for `adapters`; `storageKey` then names only where the adapter choice is
   * remembered.
   */
  session?: AgentSessionStore;
}

/** What `useAgentChat` returns: a session with the chosen adapter, plus what a chat needs around it. */
export interface AgentChatState extends AgentSession {
  /** The adapter in use. */
  adapter: AgentAdapter;
  /** The adapters to choose from, in the order given. */
  adapters: readonly AgentAdapter[];
  /** Switch to the adapter with this id and remember it. Unknown ids are ignored. The conversation carries over when it is stored. */
  selectAdapter: (id: string) => void;
  /** The adapter's `models()`, kept current; `[]` without. */
  models: readonly ModelChoice[];
  /** The id of a model being switched to, while `selectModel` runs. */
  pendingModel: string | undefined;
  /** Switch models through the adapter's `selectModel`. Never rejects: a failure lands in `setupError`. */
  selectModel: (id: string) => Promise<void>;
  /** Start the adapter's `prepare` (a model download) with a fresh signal. Never rejects: a failure lands in `setupError`. */
  prepare: () => Promise<void>;
  /** Abort the `prepare` in flight (the download card's Cancel). */
  cancelPrepare: () => void;
  /** Why the last `prepare` or `selectModel` failed; cleared when another starts. */
  setupError: string | undefined;
}

/** A given session follows the chosen adapter, and the agent and policy when the chat is given them. */
function useGivenSession(session: AgentSessionStore | undefined, adapter: AgentAdapter, { agent, confirmTools, confirmTool }: UseAgentChatOptions): void {
  useLayoutEffect(() => {
    session?.setOptions({ adapter, ...(agent && { agent }), ...(confirmTools !== undefined && { confirmTools }), ...(confirmTool && { confirmTool }) });
  }, [session, adapter, agent, confirmTools, confirmTool]);
}

/** What a chat needs around its session, and the session's store to select from (what `<AgentChat>` renders). */
export type ChatSetup = Omit<AgentChatState, keyof AgentSession> & { store: AgentSessionStore };

const whole = (session: AgentSession) => session;

/**
 * `useAgentSession`, plus what `<AgentChat>` renders around it: a choice
 * among several adapters (remembered by id), the chosen adapter's models,
 * and its setup (`prepare`, `selectModel`). Build your own chat UI on it.
 *
 * @example
 * const chat = useAgentChat({ adapters: [local, cloud], agent: shopper });
 * chat.adapterStatus.state === "needs-download" && <button onClick={chat.prepare}>Download</button>
 */
export function useAgentChat(options: UseAgentChatOptions = {}): AgentChatState {
  const { store, ...setup } = useChatSetup(options);
  return { ...useSessionSelector(store, whole), ...setup };
}

/**
 * `useAgentChat` without subscribing to the session: the store, for
 * components that each select their part of it (`useSessionSelector`), so
 * streamed text re-renders the message list, not the whole chat.
 */
export function useChatSetup(options: UseAgentChatOptions = {}): ChatSetup {
  const { adapters: given, agent, storageKey, confirmTools, confirmTool, session } = options;
  const preferred = options.adapter ?? session?.adapter;
  const adapters = useMemo<readonly AgentAdapter[]>(
    () => (given && given.length > 0 ? given : [preferred ?? sharedCloudAdapter()]),
    [given, preferred],
  );
  const choice = useMemo(
    () => createAdapterChoiceStorage(storageKey === false ? false : adapterChoiceKey(storageKey ?? DEFAULT_STORAGE_KEY)),
    [storageKey],
  );
  const [chosenId, setChosenId] = useState<string | undefined>(() => choice.load());
  const adapter =
    adapters.find((candidate) => candidate.id === chosenId) ??
    (preferred && adapters.includes(preferred) ? preferred : adapters[0]!);

  const sessionOptions = {
    ...(storageKey !== undefined && { storageKey }),
    ...(agent && { agent }),
    ...(confirmTools !== undefined && { confirmTools }),
    ...(confirmTool && { confirmTool }),
  };
  // Hooks in a fixed order: the chat's own store is made (and never watched) even beside a given session.
  const own = useAgentSessionStore(adapter, sessionOptions);
  const store = session ?? own;
  useGivenSession(session, adapter, options);
  const models = useAdapterModels(adapter);
  const [setupError, setSetupError] = useState<string | undefined>();
  const [pendingModel, setPendingModel] = useState<string | undefined>();

  const selectAdapter = useCallback(
    (id: string) => {
      if (!adapters.some((candidate) => candidate.id === id)) return;
      choice.save(id);
      setChosenId(id);
      setSetupError(undefined);
    },
    [adapters, choice],
  );

  const selectModel = useCallback(
    async (id: string) => {
      if (!adapter.selectModel) return;
      setSetupError(undefined);
      setPendingModel(id);
      try {
        await adapter.selectModel(id);
      } catch (error) {
        setSetupError(error instanceof Error ? error.message : String(error));
      } finally {
        setPendingModel((pending) => (pending === id ? undefined : pending));
      }
    },
    [adapter],
  );

  const prepare = useCallback(async () => {
    setSetupError(undefined);
    const failure = await startPreparing(adapter);
    if (failure !== undefined) setSetupError(failure);
  }, [adapter]);

  const cancelPrepare = useCallback(() => cancelPreparing(adapter), [adapter]);

  return { store, adapter, adapters, selectAdapter, models, pendingModel, selectModel, prepare, cancelPrepare, setupError };
}
