import { useEffect, useRef, type ReactNode } from "react";
import type { AgentSession } from "../runtime/session/agent-session.js";
import type { AgentSessionStore } from "../runtime/session/create-agent-session.js";
import { useChatLabels } from "./chat-labels-context.js";
import { MessageView } from "./message-view.js";
import { useSessionSelector } from "./use-session-selector.js";

/** What `<MessageList>` takes. */
export interface MessageListProps {
  store: AgentSessionStore;
  /** Shown before the first message. */
  emptyText: string;
}

const selectMessages = (session: AgentSession) => session.messages;
const selectStreaming = (session: AgentSession) => session.status === "streaming";

/**
 * The conversation as a polite live log, kept scrolled to the newest message,
 * with a Working… line until the reply shows. The one part of `<AgentChat>`
 * that streamed text re-renders (once per animation frame at most).
 */
export function MessageList({ store, emptyText }: MessageListProps): ReactNode {
  const messages = useSessionSelector(store, selectMessages);
  const streaming = useSessionSelector(store, selectStreaming);
  const log = useRef<HTMLDivElement>(null);
  const labels = useChatLabels();

  // Keep the newest message in view while the person is at the bottom.
  const lastLength = messages.at(-1)?.parts.length ?? 0;
  useEffect(() => {
    const element = log.current;
    if (element) element.scrollTop = element.scrollHeight;
  }, [messages.length, lastLength, streaming]);

  const last = messages.at(-1);
  const waitingForReply =
    streaming && (last?.role !== "assistant" || !last.parts.some((part) => part.type === "text" || part.type === "tool"));

  return (
    <div className="log" ref={log} role="log" aria-live="polite" aria-label={labels.conversation} tabIndex={0}>
      {messages.length === 0 ? (
        <p className="empty">{emptyText}</p>
      ) : (
        messages.map((message) => <MessageView key={message.id} message={message} />)
      )}
      {waitingForReply && (
        <p className="working" role="status">
          <span className="spinner" aria-hidden="true" />
          {labels.working}
        </p>
      )}
    </div>
  );
}
