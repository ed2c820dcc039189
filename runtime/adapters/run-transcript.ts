import { toolErrorPart } from "../session/tool-error-part.js";
import type { AgentMessage } from "../session/agent-message.js";
import type { AgentStreamPart } from "../session/agent-stream-part.js";
import { sessionReducer } from "../session/session-reducer.js";
import { truncateText, truncateToolOutput } from "./truncate-tool-output.js";

/**
 * An adapter's own copy of the conversation during one run, built by the
 * session's reducer so it matches what the session hands the next run, with
 * tool results cut when recorded (so each request repeats the previous one's
 * prefix), and the tool calls still waiting for a result.
 */
export class RunTranscript {
  messages: AgentMessage[];
  /** Ids of tool calls yielded without a result yet. */
  readonly open = new Set<string>();

  constructor(messages: AgentMessage[]) {
    this.messages = messages;
  }

  /** Applies `part` to the transcript and returns it unchanged, for `yield record(part)`. */
  record = (part: AgentStreamPart): AgentStreamPart => {
    let recorded = part;
    if (part.type === "tool-result") recorded = { ...part, output: truncateToolOutput(part.output) };
    if (part.type === "tool-error") recorded = { ...part, error: truncateText(part.error) };
    this.messages = sessionReducer(
      { messages: this.messages, status: "streaming", runId: "" },
      { type: "part", runId: "", part: recorded },
    ).messages;
    return part;
  };

  /** A recorded `tool-error` with `error` for every open call, which are then closed. */
  closeOpen = (error: string): AgentStreamPart[] => {
    const parts = [...this.open].map((id): AgentStreamPart => toolErrorPart(id, error));
    this.open.clear();
    return parts.map(this.record);
  };
}
