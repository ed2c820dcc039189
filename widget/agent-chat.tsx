import { useCallback, useRef, type CSSProperties, type ReactNode } from "react";
import type { WebAgent } from "../runtime/agent/web-agent.js";
import type { AgentAdapter } from "../runtime/session/agent-adapter.js";
import type { AgentSession } from "../runtime/session/agent-session.js";
import type { AgentSessionStore } from "../runtime/session/create-agent-session.js";
import type { ConfirmTool, ConfirmToolsPolicy } from "../runtime/session/tool-policy.js";
import { AdapterSetup } from "./adapter-setup.js";
import { AdapterSwitcher } from "./adapter-switcher.js";
import { AgentCursor } from "./agent-cursor.js";
import { mergeChatLabels, sameChatLabels, type ChatLabels, type ChatLabelsInput } from "./chat-labels.js";
import { ChatLabelsContext } from "./chat-labels-context.js";
import { CHAT_STYLES } from "./chat-styles.js";
import { Composer } from "./composer.js";
import { explainAdapterStatus } from "./explain-adapter-status.js";
import { FallbackNoticeLine } from "./fallback-notice-line.js";
import { hasToolCall } from "./has-tool-call.js";
import { MessageList } from "./message-list.js";
import { ModelPicker } from "./model-picker.js";
import { RunError } from "./run-error.js";
import { ShadowHost } from "./shadow-host.js";
import { useChatSetup } from "./use-agent-chat.js";
import { UsageLine } from "./usage-line.js";
import { useSessionSelector } from "./use-session-selector.js";

const selectStatus = (session: AgentSession) => session.status;
const selectAdapterStatus = (session: AgentSession) => session.adapterStatus;
const selectUsage = (session: AgentSession) => session.usage;

/** The first other adapter the person can switch to after a failure the current one cannot get past. */
function alternativeTo(adapters: readonly AgentAdapter[], current: AgentAdapter, select: (id: string) => void) {
  // Not status(): reading a local adapter's status starts its worker, and this runs during render.
  const other = adapters.find((adapter) => adapter !== current);
  return other && { label: other.label, onSelect: () => select(other.id) };
}
const selectError = (session: AgentSession) => session.error;
const selectEmpty = (session: AgentSession) => session.messages.length === 0;

/** What `<AgentChat>` takes. */
export interface AgentChatProps {
  /**
   * The adapter, or with `adapters` the one chosen first. Default: the one
   * shared `createCloudAdapter()` (your `/api/chat`), as `agent.invoke` uses.
   */
  adapter?: AgentAdapter;
  /** Adapters the person can switch between; the choice is remembered by id. Default `[adapter]`. */
  adapters?: readonly AgentAdapter[];
  /**
   * A session made with `createAgentSession`, shown instead of the chat's
   * own: the chat renders its conversation, and swaps the adapter the person
   * picks into it (`session.setOptions`), and `agent` and the tool policy
   * when given. `adapters` defaults to `[session.adapter]`. Default: the
   * chat makes its own.
   */
  session?: AgentSessionStore;
  /** The page's agent (`defineWebAgent`): instructions, tool subset, sub-agents. Default: none (every page tool). */
  agent?: WebAgent;
  /**
   * sessionStorage key for the conversation (and `"<key>:adapter"` in
   * localStorage for the adapter choice). `false` keeps both in memory.
   * Default `"web-agents:chat"`.
   */
  storageKey?: string | false;
  /**
   * Which page tool calls wait for the person's Allow in the chat, from the
   * tools' annotations: `"consequential"` (`consequentialHint: true`, or
   * MCP's `destructiveHint: true`), `"destructive"` (the same, by MCP's
   * name), `"unannotated"` (also tools that say none of `readOnlyHint`,
   * `consequentialHint`, `destructiveHint`), `"all"` (every tool not
   * `readOnlyHint: true`). Whatever it says, after a result of an
   * `untrustedContentHint` tool every later call of the turn that is not
   * `readOnlyHint` waits too. Default `"consequential"`.
   */
  confirmTools?: ConfirmToolsPolicy;
  /**
   * Answers a held call before the chat asks: `true` runs it, `false`
   * declines it, `undefined` shows Allow / Don't allow. For a tool that
   * confirms itself with `waitForClick`: `({ tool }) => tool === "place_order" || undefined`.
   * Read from the latest render. Default: not set.
   */
  confirmTool?: ConfirmTool;
  /** The heading. Default: `labels.title` (`"Assistant"`). */
  title?: string;
  /** The composer's placeholder. Default: `labels.placeholder` (`"Ask about this page…"`). */
  placeholder?: string;
  /** Shown before the first message. Default: `labels.emptyText` (`"Ask me to do something on this page."`). */
  emptyText?: string;
  /**
   * The chat's words, any of them (`ChatLabels`: buttons, the download
   * card, tool states, the Allow question, error sentences by code), over
   * the English `DEFAULT_CHAT_LABELS`; a key left out keeps its default.
   * The cursor's question for a held call too. `title`, `placeholder` and
   * `emptyText` win over theirs. Default: English.
   */
  labels?: ChatLabelsInput;
  /** Render the agent cursor. Default `true`. */
  cursor?: boolean;
  /**
   * Show what the last model step cost (tokens in and reused, tokens out,
   * time to the first token, tokens a second) in a muted line under the
   * conversation, where the adapter reports it: for developers, not
   * visitors. Default `false`.
   */
  usage?: boolean;
  /**
   * Move focus into the chat when it appears (a chat the person just
   * opened): to the message field, or while the model is not ready, to the
   * setup card's button (Download) or the card. Default `false`.
   */
  autoFocus?: boolean;
  /** On the host element (`<div data-web-agents-ui>`), to place and size the chat. */
  className?: string;
  /** On the host element, to place and size the chat. Default: none (it fills its container's width, at least 320 px tall). */
  style?: CSSProperties;
}

/**
 * The chat: drop it on a page under `<WebAgentsProvider>` (or wherever the
 * page registers its tools) and it talks to the adapter about the page.
 *
 * It renders, in its own shadow root (styles neither leak in nor out, light
 * and dark): the conversation (safe markdown, tool calls with their state and
 * collapsible input and output, sub-agent runs nested under their
 * `delegate_to_<id>` call; reasoning is not shown); an adapter switcher for
 * several adapters; a model picker for several models; the adapter's setup
 * (download card, download progress with Cancel, a load or connection
 * indicator); a composer that says why it cannot send; Stop while a reply
 * streams, Try again after a failure, and New chat. And the agent cursor.
 * Every word of it is in `labels`; it lays out mirrored under `dir="rtl"`.
 *
 * Each part subscribes to its own slice of the session: streamed text
 * re-renders the conversation (at most once per animation frame), not the
 * header, setup or composer.
 *
 * @example
 * <WebAgentsProvider tools={catalog}>
 *   <AgentChat agent={shopper} style={{ height: 520 }} />
 * </WebAgentsProvider>
 */
export function AgentChat(props: AgentChatProps): ReactNode {
  const { cursor = true, usage: showUsage = false } = props;
  // Merged again only when they say something else: an inline object each render keeps the conversation's memoized parts.
  const given = useRef<{ input: ChatLabelsInput | undefined; labels: ChatLabels }>(undefined);
  if (!given.current || !sameChatLabels(given.current.input, props.labels)) given.current = { input: props.labels, labels: mergeChatLabels(props.labels) };
  const labels = given.current.labels;
  const title = props.title ?? labels.title;
  const emptyText = props.emptyText ?? labels.emptyText;
  const chat = useChatSetup({
    ...(props.adapter && { adapter: props.adapter }),
    ...(props.adapters && { adapters: props.adapters }),
    ...(props.session && { session: props.session }),
    ...(props.agent && { agent: props.agent }),
    ...(props.storageKey !== undefined && { storageKey: props.storageKey }),
    ...(props.confirmTools !== undefined && { confirmTools: props.confirmTools }),
    ...(props.confirmTool && { confirmTool: props.confirmTool }),
  });
  const { store } = chat;
  const sessionStatus = useSessionSelector(store, selectStatus);
  const status = useSessionSelector(store, selectAdapterStatus);
  const error = useSessionSelector(store, selectError);
  const empty = useSessionSelector(store, selectEmpty);
  const usage = useSessionSelector(store, selectUsage);
  const streaming = sessionStatus === "streaming";
  const blockedBy = explainAdapterStatus(status, labels);
  // The cursor follows this conversation's calls, not another chat's on the page.
  const follows = useCallback((callId: string) => hasToolCall(store.getSnapshot().messages, callId), [store]);
  const field = useRef<HTMLTextAreaElement>(null);
  const focusField = useCallback(() => field.current?.focus(), []);
  const autoFocus = useRef(props.autoFocus === true);
  // Runs when the chat's root is attached inside the shadow root (after the host mounts).
  const focusOnMount = useCallback((root: HTMLElement | null) => {
    if (!root || !autoFocus.current) return;
    autoFocus.current = false;
    const target = root.querySelector<HTMLElement>("textarea:not([disabled])") ?? root.querySelector<HTMLElement>(".card button") ?? root.querySelector<HTMLElement>(".card");
    target?.focus();
  }, []);

  return (
    <ChatLabelsContext.Provider value={labels}>
      <ShadowHost css={CHAT_STYLES} {...(props.className && { className: props.className })} {...(props.style && { style: props.style })}>
        <section className="root" aria-label={title} ref={focusOnMount}>
          <header className="header">
            <h2 className="title">{title}</h2>
            {/* One group, so a narrow chat wraps it whole under the title rather than cutting either. */}
            <div className="actions">
              <AdapterSwitcher adapters={chat.adapters} value={chat.adapter.id} onSelect={chat.selectAdapter} disabled={streaming} />
              <button type="button" onClick={store.reset} disabled={empty && !streaming}>
                {labels.newChat}
              </button>
            </div>
          </header>
          <ModelPicker
            models={chat.models}
            onSelect={(id) => void chat.selectModel(id)}
            disabled={streaming || status.state === "downloading"}
            open={status.state === "needs-download"}
            {...(chat.pendingModel !== undefined && { pending: chat.pendingModel })}
          />
          <AdapterSetup
            status={status}
            models={chat.models}
            onCancel={chat.cancelPrepare}
            {...(chat.adapter.prepare && { onPrepare: () => void chat.prepare() })}
            {...(chat.setupError !== undefined && { setupError: chat.setupError })}
            onFocusLeft={focusField}
          />
          {/* A chat that cannot run says why where the person looks, instead of inviting a message it cannot take. */}
          <MessageList store={store} emptyText={status.state === "unavailable" ? status.reason : emptyText} />
          <FallbackNoticeLine adapter={chat.adapter} />
          {showUsage && usage && !streaming && sessionStatus !== "error" && <UsageLine usage={usage} />}
          {sessionStatus === "error" && error && <RunError error={error} onRetry={store.retry} alternative={alternativeTo(chat.adapters, chat.adapter, chat.selectAdapter)} />}
          <Composer
            {...(blockedBy !== undefined && { blockedBy })}
            {...(props.placeholder !== undefined && { placeholder: props.placeholder })}
            streaming={streaming}
            onSend={store.send}
            onStop={store.stop}
            fieldRef={field}
          />
        </section>
      </ShadowHost>
      {cursor && <AgentCursor announce={false} follows={follows} />}
    </ChatLabelsContext.Provider>
  );
}
