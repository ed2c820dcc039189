import { useEffect, useRef, type CSSProperties, type ReactNode } from "react";
import type { WebAgent } from "../runtime/agent/web-agent.js";
import type { AgentAdapter } from "../runtime/session/agent-adapter.js";
import { AdapterSetup } from "./adapter-setup.js";
import { AdapterSwitcher } from "./adapter-switcher.js";
import { AgentCursor } from "./agent-cursor.js";
import { CHAT_STYLES } from "./chat-styles.js";
import { Composer } from "./composer.js";
import { explainAdapterStatus } from "./explain-adapter-status.js";
import { MessageView } from "./message-view.js";
import { ModelPicker } from "./model-picker.js";
import { RunError } from "./run-error.js";
import { ShadowHost } from "./shadow-host.js";
import { useAgentChat } from "./use-agent-chat.js";

/** What `<AgentChat>` takes. */
export interface AgentChatProps {
  /**
   * The adapter, or with `adapters` the one chosen first. Default: the one
   * shared `createCloudAdapter()` (your `/api/chat`), as `agent.invoke` uses.
   */
  adapter?: AgentAdapter;
  /** Adapters the person can switch between; the choice is remembered by id. Default `[adapter]`. */
  adapters?: readonly AgentAdapter[];
  /** The page's agent (`defineWebAgent`): instructions, tool subset, sub-agents. Default: none (every page tool). */
  agent?: WebAgent;
  /**
   * sessionStorage key for the conversation (and `"<key>:adapter"` in
   * localStorage for the adapter choice). `false` keeps both in memory.
   * Default `"web-agents:chat"`.
   */
  storageKey?: string | false;
  /** The heading. Default `"Assistant"`. */
  title?: string;
  /** The composer's placeholder. Default `"Ask about this page…"`. */
  placeholder?: string;
  /** Shown before the first message. Default `"Ask me to do something on this page."` */
  emptyText?: string;
  /** Render the agent cursor. Default `true`. */
  cursor?: boolean;
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
 *
 * @example
 * <WebAgentsProvider tools={catalog}>
 *   <AgentChat agent={shopper} style={{ height: 520 }} />
 * </WebAgentsProvider>
 */
export function AgentChat(props: AgentChatProps): ReactNode {
  const { title = "Assistant", placeholder, emptyText = "Ask me to do something on this page.", cursor = true } = props;
  const chat = useAgentChat({
    ...(props.adapter && { adapter: props.adapter }),
    ...(props.adapters && { adapters: props.adapters }),
    ...(props.agent && { agent: props.agent }),
    ...(props.storageKey !== undefined && { storageKey: props.storageKey }),
  });
  const { adapterStatus: status, messages } = chat;
  const streaming = chat.status === "streaming";
  const log = useRef<HTMLDivElement>(null);

  // Keep the newest message in view while the person is at the bottom.
  const lastLength = messages.at(-1)?.parts.length ?? 0;
  useEffect(() => {
    const element = log.current;
    if (element) element.scrollTop = element.scrollHeight;
  }, [messages.length, lastLength, streaming]);

  const blockedBy = explainAdapterStatus(status);
  const last = messages.at(-1);
  const waitingForReply =
    streaming && (last?.role !== "assistant" || !last.parts.some((part) => part.type === "text" || part.type === "tool"));

  return (
    <>
      <ShadowHost css={CHAT_STYLES} {...(props.className && { className: props.className })} {...(props.style && { style: props.style })}>
        <section className="root" aria-label={title}>
          <header className="header">
            <h2 className="title">{title}</h2>
            <AdapterSwitcher adapters={chat.adapters} value={chat.adapter.id} onSelect={chat.selectAdapter} disabled={streaming} />
            <button type="button" onClick={chat.reset} disabled={messages.length === 0 && !streaming}>
              New chat
            </button>
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
          />
          <div className="log" ref={log} role="log" aria-live="polite" aria-label="Conversation" tabIndex={0}>
            {messages.length === 0 ? (
              <p className="empty">{emptyText}</p>
            ) : (
              messages.map((message) => <MessageView key={message.id} message={message} />)
            )}
            {waitingForReply && (
              <p className="working" role="status">
                <span className="spinner" aria-hidden="true" />
                Working…
              </p>
            )}
          </div>
          {chat.status === "error" && chat.error && <RunError error={chat.error} onRetry={chat.retry} />}
          <Composer
            {...(blockedBy !== undefined && { blockedBy })}
            {...(placeholder !== undefined && { placeholder })}
            streaming={streaming}
            onSend={chat.send}
            onStop={chat.stop}
          />
        </section>
      </ShadowHost>
      {cursor && <AgentCursor announce={false} />}
    </>
  );
}
