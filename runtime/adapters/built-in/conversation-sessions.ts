import type { ToolDescriptor } from "../../session/tool-descriptor.js";
import { abortable } from "../abortable.js";
import type { PromptApi, PromptApiCreateOptions, PromptApiMessage, PromptApiSession } from "./prompt-api.js";
import { messageKey, toolSignature, type EncodedMessage } from "./prompt-messages.js";

/** Base sessions kept (one per system prompt: instructions and the tools a conversation started with). */
const MAX_BASES = 2;
/** Conversations whose sessions are kept, as the engine keeps 4 conversations' KV caches (worker/prefix-cache.ts). */
const MAX_CONVERSATIONS = 4;
/** The share of the context window kept free for the reply when deciding to drop old turns. */
const REPLY_SHARE = 0.15;

/** One conversation's session, and what it holds past its base. */
interface Conversation {
  session: PromptApiSession;
  /** The keys of the conversation messages the session holds, in order. */
  covered: string[];
  /** The tools the session has been told of: name -> signature. */
  tools: Map<string, string>;
  /** Set by the session's `contextoverflow` event: the browser dropped old turns itself. */
  overflowed: boolean;
}

/** What a step prompts with, on which session. */
export interface PreparedStep {
  session: PromptApiSession;
  /** What is new since the session's last step: the step's prompt input. */
  input: PromptApiMessage[];
  /** Old turns were dropped to make room (the adapter says so in one line). */
  trimmed: boolean;
  /** The browser dropped old turns while this step ran (its `contextoverflow`). */
  overflowed(): boolean;
  /** The step's reply was recorded by the session: it now holds the conversation and `reply`. */
  commit(reply: PromptApiMessage): void;
}

/** What one step asks of {@link ConversationSessions.prepare}. */
export interface StepSessionRequest {
  conversationId: string;
  systemPrompt: string;
  /** The whole conversation, encoded (prompt-messages.ts). */
  conversation: EncodedMessage[];
  tools: readonly ToolDescriptor[];
  /** Notes for the model after what is new (the tools changed, the step limit). */
  notes: (known: ReadonlyMap<string, string>) => string[];
  signal: AbortSignal;
}

function touch<K, V>(map: Map<K, V>, key: K, value: V, max: number, evict: (value: V) => void) {
  map.delete(key);
  map.set(key, value);
  while (map.size > max) {
    const [oldest, entry] = map.entries().next().value as [K, V];
    map.delete(oldest);
    evict(entry);
  }
}

const signatures = (tools: readonly ToolDescriptor[]) => new Map(tools.map((tool) => [tool.name, toolSignature(tool)]));

/**
 * The prefix reuse the Prompt API allows: the system prompt and tools live in
 * one base session (created once per system prompt); each conversation is a
 * `clone()` of it, and each step sends only what is new since the session's
 * last reply. A conversation that no longer extends what its session holds
 * (Retry, a turn edited, a reload) starts again from a clone, its history
 * appended. A step that would not fit the context window drops the oldest
 * turns first (the system prompt and tools stay), measured with
 * `measureContextUsage`.
 */
export class ConversationSessions {
  private readonly bases = new Map<string, Promise<PromptApiSession>>();
  private readonly conversations = new Map<string, Conversation>();

  constructor(
    private readonly api: () => PromptApi,
    private readonly createOptions: () => PromptApiCreateOptions,
  ) {}

  /** Forgets every session (and destroys them): the model went away, or the adapter was reset. */
  clear(): void {
    for (const conversation of this.conversations.values()) conversation.session.destroy();
    this.conversations.clear();
    for (const base of this.bases.values()) void base.then((session) => session.destroy(), () => {});
    this.bases.clear();
  }

  private base(systemPrompt: string, signal: AbortSignal): Promise<PromptApiSession> {
    let base = this.bases.get(systemPrompt);
    if (!base) {
      // No signal: the base outlives the step that made it; a step only stops waiting for it.
      base = this.api().create({ ...this.createOptions(), initialPrompts: [{ role: "system", content: systemPrompt }] });
      base.catch(() => this.bases.delete(systemPrompt));
    }
    touch(this.bases, systemPrompt, base, MAX_BASES, (evicted) => void evicted.then((session) => session.destroy(), () => {}));
    return abortable(base, signal);
  }

  private async fresh(request: StepSessionRequest): Promise<Conversation> {
    const session = await (await this.base(request.systemPrompt, request.signal)).clone({ signal: request.signal });
    const conversation: Conversation = { session, covered: [], tools: signatures(request.tools), overflowed: false };
    session.addEventListener("contextoverflow", () => (conversation.overflowed = true));
    return conversation;
  }

  private keep(id: string, conversation: Conversation) {
    touch(this.conversations, id, conversation, MAX_CONVERSATIONS, (evicted) => evicted.session.destroy());
  }

  /** The session for this step, holding everything but what `input` brings. */
  async prepare(request: StepSessionRequest): Promise<PreparedStep> {
    const keys = request.conversation.map(({ message }) => messageKey(message));
    const known = this.conversations.get(request.conversationId);
    let trimmed = false;
    let history: EncodedMessage[] = [];
    let fresh: EncodedMessage[];
    let conversation: Conversation;
    if (known && known.covered.length < keys.length && known.covered.every((key, index) => key === keys[index])) {
      conversation = known;
      fresh = request.conversation.slice(known.covered.length);
    } else {
      known?.session.destroy();
      this.conversations.delete(request.conversationId);
      conversation = await this.fresh(request);
      // What follows the last reply is the step's input; the rest is history, appended first.
      const lastReply = request.conversation.findLastIndex(({ message }) => message.role === "assistant");
      history = request.conversation.slice(0, lastReply + 1);
      fresh = request.conversation.slice(lastReply + 1);
    }
    const input = (): PromptApiMessage[] => [
      ...fresh.map(({ message }) => message),
      ...request.notes(conversation.tools).map((content): PromptApiMessage => ({ role: "user", content })),
    ];
    const { session } = conversation;
    const replyRoom = Math.ceil(session.contextWindow * REPLY_SHARE);
    const fits = async (on: PromptApiSession, messages: PromptApiMessage[]) =>
      !Number.isFinite(on.contextWindow) || on.contextUsage + (await on.measureContextUsage(messages, { signal: request.signal })) + replyRoom <= on.contextWindow;

    try {
      if (history.length > 0 || !(await fits(session, input()))) {
        if (history.length === 0) {
          // The session holds the whole conversation and the next step does not fit: start again
          // from a clone with the newest turns that do.
          conversation.session.destroy();
          this.conversations.delete(request.conversationId);
          conversation = await this.fresh(request);
          history = request.conversation.slice(0, request.conversation.length - fresh.length);
        }
        let start = 0;
        while (start < history.length && !(await fits(conversation.session, [...history.slice(start).map(({ message }) => message), ...input()]))) {
          trimmed = true;
          const next = history.findIndex((entry, index) => index > start && entry.turnStart);
          start = next === -1 ? history.length : next;
        }
        const kept = history.slice(start);
        if (kept.length > 0) await conversation.session.append(kept.map(({ message }) => message), { signal: request.signal });
        // The session now holds the kept history; the dropped turns count as held (they are not new).
        conversation.covered = keys.slice(0, history.length);
      }
    } catch (error) {
      // Stopped or failed while rebuilding: what the session holds is unknown, so the next step starts again.
      conversation.session.destroy();
      this.conversations.delete(request.conversationId);
      throw error;
    }
    this.keep(request.conversationId, conversation);
    const held = conversation;
    held.overflowed = false;
    const sent = input();
    return {
      session: held.session,
      input: sent,
      trimmed,
      overflowed: () => held.overflowed,
      commit: (reply) => {
        held.covered = [...keys, messageKey(reply)];
        held.tools = signatures(request.tools);
      },
    };
  }
}
