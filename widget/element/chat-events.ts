import { pendingToolConfirmation, subscribeToolConfirmations } from "../../runtime/core/pending-tool-confirmation.js";
import type { AgentMessage, ToolPart } from "../../runtime/session/agent-message.js";
import type { AgentSessionStore } from "../../runtime/session/create-agent-session.js";
import type { SessionError } from "../../runtime/session/session-error.js";

/** The DOM events `<web-agents-chat>` sends (bubbling, composed), with their `detail`. */
export interface WebAgentsChatEventMap {
  /** A tool call started: `{ id, name, input }`. */
  "web-agents-tool-call": CustomEvent<{ id: string; name: string; input: unknown }>;
  /** The tool policy holds a call for the person's Allow: `{ id, tool, prompt }`. */
  "web-agents-confirmation": CustomEvent<{ id: string; tool: string; prompt: string }>;
  /** A run ended without an error: `{ messages }`, the conversation. */
  "web-agents-finish": CustomEvent<{ messages: readonly AgentMessage[] }>;
  /** A run ended with an error: `{ error }`, the session's error. */
  "web-agents-error": CustomEvent<{ error: SessionError | undefined }>;
}

function toolParts(messages: readonly AgentMessage[]): ToolPart[] {
  return messages.flatMap((message) => message.parts.filter((part): part is ToolPart => part.type === "tool"));
}

/**
 * Sends `session`'s tool calls, the confirmations it waits for, and each
 * run's end from `host` as DOM events. Calls already in the session when it
 * starts (a restored conversation) are not sent again. Returns a function
 * that stops.
 */
export function dispatchChatEvents(host: HTMLElement, session: AgentSessionStore): () => void {
  const send = <K extends keyof WebAgentsChatEventMap>(type: K, detail: WebAgentsChatEventMap[K]["detail"]) =>
    host.dispatchEvent(new CustomEvent(type, { detail, bubbles: true, composed: true }));
  let snapshot = session.getSnapshot();
  const seenCalls = new Set(toolParts(snapshot.messages).map((part) => part.id));
  const seenConfirmations = new Set<string>();

  const readConfirmations = () => {
    for (const part of toolParts(session.getSnapshot().messages)) {
      const held = pendingToolConfirmation(part.id);
      if (!held || seenConfirmations.has(part.id)) continue;
      seenConfirmations.add(part.id);
      send("web-agents-confirmation", { id: part.id, tool: held.tool, prompt: held.prompt });
    }
  };
  const readSession = () => {
    const previous = snapshot;
    snapshot = session.getSnapshot();
    for (const part of toolParts(snapshot.messages)) {
      if (seenCalls.has(part.id)) continue;
      seenCalls.add(part.id);
      send("web-agents-tool-call", { id: part.id, name: part.name, input: part.input });
    }
    readConfirmations();
    if (previous.status === "streaming" && snapshot.status === "idle") send("web-agents-finish", { messages: snapshot.messages });
    if (previous.status !== "error" && snapshot.status === "error") send("web-agents-error", { error: snapshot.error });
  };
  const stopSession = session.subscribe(readSession);
  const stopConfirmations = subscribeToolConfirmations(readConfirmations);
  return () => {
    stopSession();
    stopConfirmations();
  };
}
