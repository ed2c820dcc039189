import { toolErrorPart } from "../session/tool-error-part.js";
import type { AgentRunRequest } from "../session/agent-adapter.js";
import type { AgentMessage } from "../session/agent-message.js";
import type { AgentStreamPart } from "../session/agent-stream-part.js";
import { joinTextDeltas, sessionReducer, type PartAction } from "../session/session-reducer.js";

/**
 * An adapter's view of the conversation during one run, and the tool calls
 * still waiting for a result. Run by a session, it is the session's own
 * conversation (`req.conversation()`): every part is applied once, there.
 * Run without one (a test, a script calling `adapter.run`), it keeps a copy
 * built by the session's reducer, so it matches what a session would hold.
 * Tool results are cut to what the model reads when a request is built
 * (`to-request-messages.ts`), not here.
 */
export class RunTranscript {
  readonly #conversation: (() => AgentMessage[]) | undefined;
  #own: AgentMessage[];
  /** Streamed text not yet in `#own`, joined: applied when read or before the next other part, so a token costs the same in a long conversation. */
  #pending: PartAction | undefined;
  /** Ids of tool calls yielded without a result yet. */
  readonly open = new Set<string>();

  constructor(req: Pick<AgentRunRequest, "messages" | "conversation">) {
    this.#conversation = req.conversation;
    this.#own = req.messages;
  }

  /** The run's messages so far: the request's, then what the run yielded. */
  get messages(): AgentMessage[] {
    if (this.#conversation) return this.#conversation();
    this.#flush();
    return this.#own;
  }

  /** Applies `part` to the copy (when there is no session to) and returns it unchanged, for `yield record(part)`. */
  record = (part: AgentStreamPart): AgentStreamPart => {
    if (this.#conversation) return part;
    const action: PartAction = { type: "part", runId: "", part };
    const joined = this.#pending && joinTextDeltas(this.#pending, action);
    if (!joined) this.#flush();
    // A copy: the caller may reuse the part object it yielded.
    if (part.type === "text-delta") this.#pending = joined ?? { ...action, part: { ...part } };
    else this.#apply(action);
    return part;
  };

  #flush(): void {
    if (!this.#pending) return;
    const action = this.#pending;
    this.#pending = undefined;
    this.#apply(action);
  }

  #apply(action: PartAction): void {
    this.#own = sessionReducer({ messages: this.#own, status: "streaming", runId: "" }, action).messages;
  }

  /** A recorded `tool-error` with `error` for every open call, which are then closed. */
  closeOpen = (error: string): AgentStreamPart[] => {
    const parts = [...this.open].map((id): AgentStreamPart => toolErrorPart(id, error));
    this.open.clear();
    return parts.map(this.record);
  };
}
