import { memo, type ReactNode } from "react";
import type { AgentMessage } from "../runtime/session/agent-message.js";
import { useChatLabels } from "./chat-labels-context.js";
import { MarkdownText } from "./markdown-text.js";
import { ToolCallView } from "./tool-call-view.js";

/** What `<MessageView>` takes. */
export interface MessageViewProps {
  message: AgentMessage;
}

/**
 * One turn: a person's text as written, an assistant's text as safe
 * markdown, its tool calls with their state, and "Stopped" under a reply
 * the person stopped (one stopped before its first word shows only that). Reasoning is kept in the
 * conversation for the next request but never rendered. Memoized: the
 * session's reducer keeps every message it did not change, so streamed
 * text re-renders only the message it lands in.
 */
export const MessageView = memo(function MessageView({ message }: MessageViewProps): ReactNode {
  const labels = useChatLabels();
  if (message.role === "user") {
    const text = message.parts.map((part) => (part.type === "text" ? part.text : "")).join("");
    return (
      <div className="message user" data-role="user">
        <span className="visually-hidden">{labels.you} </span>
        {/* The person's own words read in their own direction, wherever the chat's is. */}
        <span dir="auto">{text}</span>
      </div>
    );
  }
  return (
    <div className="message assistant" data-role="assistant">
      {message.parts.map((part, index) => {
        switch (part.type) {
          case "text":
            return <MarkdownText key={index} text={part.text} />;
          case "tool":
            return (
              <ToolCallView key={part.id} part={part}>
                {part.agent?.messages
                  .filter((nested) => nested.role === "assistant")
                  .map((nested) => <MessageView key={nested.id} message={nested} />)}
              </ToolCallView>
            );
          case "reasoning":
            return null;
        }
      })}
      {message.stopped && (
        <p className="stopped muted" data-stopped="">
          {labels.stopped}
        </p>
      )}
    </div>
  );
});
