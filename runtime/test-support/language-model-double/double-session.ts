import { checkConstraintShape, enforceConstraint } from "./enforce-constraint.js";

/** A message as the double keeps it: text only (the adapter sends no images or audio). */
export interface DoubleMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

/** What a scripted reply is chosen from. */
export interface DoublePromptRequest {
  /** What the session holds before this prompt (initial prompts included). */
  history: readonly DoubleMessage[];
  /** This prompt's messages. */
  input: readonly DoubleMessage[];
  responseConstraint?: unknown;
  /** How many replies the session's lineage has given (clones inherit it): 0 for the first. */
  index: number;
}

/** One prompt or append as the session recorded it, for tests to read. */
export interface DoubleCall {
  kind: "prompt" | "append";
  input: DoubleMessage[];
  responseConstraint?: unknown;
  omitResponseConstraintInput?: boolean;
}

/** What sessions share: the model's behaviour and the record of what happened. */
export interface DoubleModel {
  contextWindow: number;
  countTokens(text: string): number;
  reply(request: DoublePromptRequest): string;
  chunkSize: number;
  unsupportedKeywords: readonly string[];
  /** Waits between streamed chunks: a task, as a browser delivers them. */
  nextChunk(): Promise<void>;
  calls: DoubleCall[];
  sessions: Set<DoubleSession>;
}

/** Per-message overhead, as an implementation counts control tokens around each message. */
const MESSAGE_OVERHEAD = 4;

interface Entry {
  message: DoubleMessage;
  tokens: number;
  /** The prompt or append that added it: overflow drops whole groups, oldest first. */
  group: number;
  initial: boolean;
}

type Input = string | readonly { role: DoubleMessage["role"]; content: string | readonly { type: string; value: unknown }[]; prefix?: boolean }[];
interface PromptOptions {
  responseConstraint?: unknown;
  omitResponseConstraintInput?: boolean;
  signal?: AbortSignal;
}

/** Passed by `create()` and `clone()`: the interface has no constructor of its own (`new LanguageModel()` throws, as in a browser). */
export const SESSION_TOKEN = Symbol("LanguageModel session");

const abortReason = (signal: AbortSignal | undefined) => (signal?.reason instanceof Error || signal?.reason instanceof DOMException ? signal.reason : new DOMException("The operation was aborted.", "AbortError"));

/** The proposed `QuotaExceededError` (the explainer's whatwg/webidl#1465): `requested` and `quota`. */
function quotaExceeded(requested: number, quota: number): DOMException {
  return Object.assign(new DOMException(`The input needs ${requested} tokens; ${quota} are available.`, "QuotaExceededError"), { requested, quota });
}

/** Keeps a pair of UTF-16 halves together, as a browser's chunks (whole tokens) do. */
function chunksOf(text: string, size: number): string[] {
  const chunks: string[] = [];
  let start = 0;
  while (start < text.length) {
    let end = Math.min(text.length, start + size);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end++;
    chunks.push(text.slice(start, end));
    start = end;
  }
  return chunks;
}

/**
 * A `LanguageModel` session as the explainer's IDL describes it: prompts run
 * one at a time per session (queued), `contextUsage` / `contextWindow`
 * count tokens, a prompt that does not fit drops the oldest prompt/response
 * pairs (never the initial prompts) and fires `contextoverflow`, or fails
 * with `QuotaExceededError` removing nothing; an aborted prompt is removed
 * with its partial reply; `clone()` forks the session with what it holds;
 * `destroy()` rejects what is pending.
 */
export class DoubleSession extends EventTarget {
  oncontextoverflow: ((this: EventTarget, event: Event) => unknown) | null = null;
  #model: DoubleModel;
  #entries: Entry[];
  #replies: number;
  #groups = 0;
  #queue: Promise<unknown> = Promise.resolve();
  #destroyed = false;
  #pending = new Set<AbortController>();
  #samplingMode: string;

  /** @internal Sessions come from `LanguageModel.create()` and `clone()`. */
  constructor(token: typeof SESSION_TOKEN, model: DoubleModel, entries: Entry[], replies: number, samplingMode: string) {
    if (token !== SESSION_TOKEN) throw new TypeError("Illegal constructor");
    super();
    this.#model = model;
    this.#entries = entries;
    this.#replies = replies;
    this.#samplingMode = samplingMode;
    model.sessions.add(this);
  }

  /** @internal */
  static initialEntries(model: DoubleModel, messages: readonly DoubleMessage[]): Entry[] {
    return messages.map((message) => ({ message, tokens: model.countTokens(message.content) + MESSAGE_OVERHEAD, group: -1, initial: true }));
  }

  get contextUsage(): number {
    return this.#entries.reduce((total, entry) => total + entry.tokens, 0);
  }

  get contextWindow(): number {
    return this.#model.contextWindow;
  }

  get samplingMode(): string {
    return this.#samplingMode;
  }

  /** What the session holds, for tests. */
  get history(): DoubleMessage[] {
    return this.#entries.map((entry) => ({ ...entry.message }));
  }

  #normalize(input: Input, allowSystem: boolean): DoubleMessage[] {
    const list = typeof input === "string" ? [{ role: "user" as const, content: input }] : input;
    if (!Array.isArray(list)) throw new TypeError("The prompt must be a string or a sequence of messages.");
    return list.map((message, index) => {
      if (message.role === "system" && !(allowSystem && index === 0 && this.#entries.length === 0)) {
        throw new TypeError("A system message must come first, in the session's first messages.");
      }
      if (!["system", "user", "assistant"].includes(message.role)) throw new TypeError(`Unknown role "${String(message.role)}".`);
      const content = typeof message.content === "string" ? message.content : message.content.map((part: { type: string; value: unknown }) => (part.type === "text" ? String(part.value) : `[${part.type}]`)).join("");
      return { role: message.role, content };
    });
  }

  #tokens(messages: readonly DoubleMessage[], options: PromptOptions = {}): number {
    const constraint = options.responseConstraint !== undefined && !options.omitResponseConstraintInput ? this.#model.countTokens(String(options.responseConstraint instanceof RegExp ? options.responseConstraint : JSON.stringify(options.responseConstraint))) : 0;
    return messages.reduce((total, message) => total + this.#model.countTokens(message.content) + MESSAGE_OVERHEAD, constraint);
  }

  /** Makes room for `needed` tokens: drops the oldest groups, or throws `QuotaExceededError` dropping nothing. */
  #makeRoom(needed: number): number {
    const window = this.#model.contextWindow;
    if (this.contextUsage + needed <= window) return this.#groups++;
    const initial = this.#entries.filter((entry) => entry.initial).reduce((total, entry) => total + entry.tokens, 0);
    if (initial + needed > window) throw quotaExceeded(needed, window - this.contextUsage);
    while (this.contextUsage + needed > window) {
      const oldest = this.#entries.find((entry) => !entry.initial)!.group;
      this.#entries = this.#entries.filter((entry) => entry.group !== oldest);
    }
    const event = new Event("contextoverflow");
    this.dispatchEvent(event);
    this.oncontextoverflow?.call(this, event);
    return this.#groups++;
  }

  #assertAlive() {
    if (this.#destroyed) throw new DOMException("The session has been destroyed.", "InvalidStateError");
  }

  /** Runs `operation` after the session's earlier prompts and appends, aborting with `signal` or `destroy()`. */
  #enqueue<T>(signal: AbortSignal | undefined, operation: (aborted: AbortSignal) => Promise<T>): Promise<T> {
    const controller = new AbortController();
    const onAbort = () => controller.abort(abortReason(signal));
    signal?.addEventListener("abort", onAbort, { once: true });
    this.#pending.add(controller);
    const run = this.#queue.then(async () => {
      if (controller.signal.aborted) throw controller.signal.reason;
      return operation(controller.signal);
    });
    const done = run.finally(() => {
      signal?.removeEventListener("abort", onAbort);
      this.#pending.delete(controller);
    });
    this.#queue = done.catch(() => {});
    return done;
  }

  promptStreaming(input: Input, options: PromptOptions = {}): ReadableStream<string> {
    let messages: DoubleMessage[];
    const chunks: string[] = [];
    let failure: unknown;
    try {
      this.#assertAlive();
      if (options.omitResponseConstraintInput && options.responseConstraint === undefined) throw new TypeError("omitResponseConstraintInput needs a responseConstraint.");
      checkConstraintShape(options.responseConstraint, this.#model.unsupportedKeywords);
      messages = this.#normalize(input, true);
    } catch (error) {
      failure = error;
      messages = [];
    }
    const model = this.#model;
    let streamController!: ReadableStreamDefaultController<string>;
    const finished = failure !== undefined ? Promise.reject(failure) : this.#enqueue(options.signal, async (signal) => {
      if (signal.aborted) throw signal.reason;
      const group = this.#makeRoom(this.#tokens(messages, options));
      const history = this.#entries.map((entry) => ({ ...entry.message }));
      const added = messages.map((message) => ({ message, tokens: model.countTokens(message.content) + MESSAGE_OVERHEAD, group, initial: false }));
      this.#entries.push(...added);
      model.calls.push({ kind: "prompt", input: messages, responseConstraint: options.responseConstraint, ...(options.omitResponseConstraintInput && { omitResponseConstraintInput: true }) });
      try {
        const reply = model.reply({ history, input: messages, responseConstraint: options.responseConstraint, index: this.#replies });
        enforceConstraint(reply, options.responseConstraint);
        for (const chunk of chunksOf(reply, model.chunkSize)) {
          await model.nextChunk();
          if (signal.aborted) throw signal.reason;
          streamController.enqueue(chunk);
          chunks.push(chunk);
        }
        this.#entries.push({ message: { role: "assistant", content: reply }, tokens: model.countTokens(reply) + MESSAGE_OVERHEAD, group, initial: false });
        this.#replies++;
      } catch (error) {
        // An aborted or failed prompt is removed from the session, its partial reply too.
        this.#entries = this.#entries.filter((entry) => entry.group !== group);
        throw error;
      }
    });
    finished.catch(() => {});
    return new ReadableStream<string>({
      start(controller) {
        streamController = controller;
        finished.then(
          () => controller.close(),
          (error: unknown) => controller.error(error),
        );
      },
    });
  }

  async prompt(input: Input, options: PromptOptions = {}): Promise<string> {
    let text = "";
    for await (const chunk of this.promptStreaming(input, options) as unknown as AsyncIterable<string>) text += chunk;
    return text;
  }

  append(input: Input, options: { signal?: AbortSignal } = {}): Promise<undefined> {
    try {
      this.#assertAlive();
      const messages = this.#normalize(input, true);
      return this.#enqueue(options.signal, async (signal) => {
        if (signal.aborted) throw signal.reason;
        const group = this.#makeRoom(this.#tokens(messages));
        this.#entries.push(...messages.map((message) => ({ message, tokens: this.#model.countTokens(message.content) + MESSAGE_OVERHEAD, group, initial: false })));
        this.#model.calls.push({ kind: "append", input: messages });
        return undefined;
      });
    } catch (error) {
      return Promise.reject(error);
    }
  }

  async measureContextUsage(input: Input, options: PromptOptions = {}): Promise<number> {
    this.#assertAlive();
    if (options.signal?.aborted) throw abortReason(options.signal);
    return this.#tokens(this.#normalize(input, true), options);
  }

  async clone(options: { signal?: AbortSignal } = {}): Promise<this> {
    this.#assertAlive();
    if (options.signal?.aborted) throw abortReason(options.signal);
    // Waits for what is queued, so the clone holds every reply given so far.
    await this.#queue;
    const Session = this.constructor as new (token: typeof SESSION_TOKEN, model: DoubleModel, entries: Entry[], replies: number, samplingMode: string) => this;
    return new Session(SESSION_TOKEN, this.#model, this.#entries.map((entry) => ({ ...entry })), this.#replies, this.#samplingMode);
  }

  destroy(): undefined {
    if (this.#destroyed) return undefined;
    this.#destroyed = true;
    for (const controller of this.#pending) controller.abort(new DOMException("The session was destroyed.", "AbortError"));
    this.#model.sessions.delete(this);
    return undefined;
  }
}
