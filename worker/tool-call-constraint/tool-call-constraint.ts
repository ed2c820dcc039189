import type { ToolCallGrammar } from "../../models/model-format.js";
import type { PlannerGrammar } from "./budget/planner-grammar.js";
import { TokenSpeller } from "./budget/token-speller.js";
import { notify, observed } from "./constraint-observer.js";
import { OpenCall, type CallMatcher } from "./open-call.js";
import { OpenerMasks } from "./vocabulary/opener-masks.js";
import { TokenBytes } from "./vocabulary/token-bytes.js";
import type { Vocabulary } from "./vocabulary/tokenizer-vocabulary.js";
import { Utf8Shapes } from "./vocabulary/utf8-shapes.js";


/** Whether a generation may, must, or must not call a tool. */
export type ToolChoice = "auto" | "required" | "none";

export interface ToolCallConstraintOptions {
  grammar: ToolCallGrammar;
  /**
   * Each id's text as the tokenizer writes it (byte-level characters), from
   * the tokenizer's own vocabulary (nothing is built for it): what tells the
   * call opener and `</think>` apart outside a call.
   */
  texts: readonly string[];
  /** The constraint's vocabulary (special tokens empty), read when a call first opens. */
  vocabulary: () => Vocabulary;
  /** The call opener's own token id (Qwen's `<tool_call>` is an added token): the first token is told apart by it alone. */
  openerId?: number;
  toolChoice: ToolChoice;
  /** The prompt left the model thinking: `required` lets it finish its `<think>` block first. */
  thinking: boolean;
  maxNewTokens: number;
  /** A matcher for one call's body (after the opener, through the closer); called when a call opens. */
  createMatcher: () => Promise<CallMatcher>;
  /** The same call for the completion planner (budget-aware closing); called when a call opens. Without it a call near `maxNewTokens` is only masked. */
  createPlanner?: () => Promise<PlannerGrammar | undefined>;
  /** The tokenizer's own ids for a text: with it, a stretch the grammar fixes is written ahead (jump-forward). */
  encode?: (text: string) => number[];
  /** Count the calls whose likeliest token the mask refused ({@link ToolCallConstraint.repairedCalls}): one pass over the logits a step. */
  countRepairs?: boolean;
}

/**
 * `auto`, outside a call, with this many tokens left or fewer: the constraint
 * learns how many tokens the shortest call takes and from then on lets no
 * call open that could not close in time.
 */
const OPENING_HORIZON = 64;

type State = "free" | "think" | "await" | "call";

const THINK_CLOSE = "</think>";
const NEWLINES = /^Ċ+$/;

/**
 * One generation's tool-call constraint, as a state machine over the tokens.
 * `auto`: text and thinking flow freely until the format's opener, then every
 * token is masked until the closer, then free again. `required`: outside a
 * thinking block only the opener may come (a token or its pieces), then the
 * call. `none`: no token may complete the opener.
 *
 * Inside a call a token must be allowed by xgrammar's mask of the call's
 * grammar (grammar/), keep the text well-formed UTF-8, and keep within the
 * bounds the grammar leaves to bounds/ (lengths, counts, whitespace runs);
 * near `maxNewTokens`, budget/ keeps the call closable in the tokens left.
 * Where the grammar allows exactly one continuation, {@link prepare} writes
 * its tokens itself (jump-forward): the engine feeds them to the model in one
 * pass with the sampled token.
 *
 * Drive it per step: {@link observe} each sampled token (synchronous, from a
 * stopping criterion), await {@link prepare} before the next forward pass
 * (feeds the call's readers, computes the mask: xgrammar's calls are async),
 * then {@link apply} the mask to that pass's logits (from a logits processor).
 */
export class ToolCallConstraint {
  #options: ToolCallConstraintOptions;
  #disabled = false;
  #tables?: { vocabulary: Vocabulary; speller: TokenSpeller; utf8: Utf8Shapes; bytes: TokenBytes };
  /** Which tokens write the opener: scanned after the first token, never before it. */
  #opener?: OpenerMasks;
  #state: State;
  #recent = "";
  #pending: number[] = [];
  #generated = 0;
  #call?: OpenCall;
  /** Tokens the shortest call takes after the opener (`auto`, near the limit); undefined: not known. */
  #shortestCall?: number;
  #shortestCallAsked = false;
  /** Whitespace written since a thinking block closed (`required` lets the template's blank line through); -1: none allowed. */
  #whitespace = -1;
  #completedCalls = 0;
  #repairedCalls = 0;
  #prepareMs = 0;

  constructor(options: ToolCallConstraintOptions) {
    this.#options = options;
    this.#state = options.toolChoice === "required" ? (options.thinking ? "think" : "await") : "free";
  }

  /** The vocabulary's tables for a call, read when a call first needs them. */
  #read() {
    if (!this.#tables) {
      const vocabulary = this.#options.vocabulary();
      const { encoded } = vocabulary;
      this.#tables = { vocabulary, speller: TokenSpeller.for(encoded), utf8: Utf8Shapes.for(encoded), bytes: TokenBytes.for(vocabulary) };
    }
    return this.#tables;
  }

  /** A token was sampled. */
  observe(id: number): void {
    this.#pending.push(id);
  }

  /** Whether the constraint is inside a call now. */
  get inCall(): boolean {
    return this.#state === "call";
  }

  /** Calls that opened and closed under the constraint. */
  get completedCalls(): number {
    return this.#completedCalls;
  }

  /** Calls in which the mask refused the model's likeliest token at some step (closed or not): what the constraint changed. Counted with `countRepairs` only. */
  get repairedCalls(): number {
    return this.#repairedCalls;
  }

  /**
   * Feeds what was sampled since the last step and computes the next step's
   * mask. Returns the tokens it wrote ahead (jump-forward), which the next
   * pass must feed to the model after the sampled one; none when the grammar
   * leaves a choice.
   */
  async prepare(): Promise<number[]> {
    const started = observed() ? performance.now() : 0;
    const wasInCall = this.#state === "call";
    if (this.#pending.length) this.#opener ??= OpenerMasks.for(this.#options.grammar.callOpen, this.#options.texts);
    for (const id of this.#pending.splice(0)) {
      this.#generated += 1;
      if (this.#state === "call") this.#readInCall(id);
      else await this.#readOutside(id);
    }
    let ahead: number[] = [];
    if (this.#state === "call" && this.#options.encode) {
      ahead = this.#call!.jumpForward(this.#options.encode, this.#options.maxNewTokens - this.#generated - 1);
      this.#generated += ahead.length;
      if (this.#call!.closed) this.#leaveCall();
    }
    if (this.#state === "call") await this.#call!.prepareMask();
    this.#learnShortestCall();
    if (started && (wasInCall || this.#state === "call")) this.#prepareMs = performance.now() - started;
    return ahead;
  }

  #readInCall(id: number): void {
    const call = this.#call!;
    call.passes += 1;
    call.take(id);
    if (call.closed) this.#leaveCall();
  }

  async #readOutside(id: number): Promise<void> {
    const token = this.#options.texts[id] ?? "";
    this.#recent = (this.#recent + token).slice(-64);
    if (this.#state === "await" && this.#whitespace >= 0) this.#whitespace += [...token].length;
    const close = this.#recent.lastIndexOf(THINK_CLOSE);
    if (this.#state === "think" && close !== -1) {
      this.#recent = this.#recent.slice(close + THINK_CLOSE.length);
      this.#state = this.#options.toolChoice === "required" && this.#completedCalls === 0 ? "await" : "free";
      this.#whitespace = [...this.#recent].length;
    }
    // The opener and `</think>` are printable ASCII: the vocabulary's byte-level strings spell them as they are.
    if (this.#disabled || this.#options.toolChoice === "none" || !this.#recent.endsWith(this.#options.grammar.callOpen)) return;
    this.#recent = "";
    try {
      const matcher = await this.#options.createMatcher();
      this.#call = new OpenCall(matcher, this.#options.grammar, this.#read(), await this.#planner(), this.#options.countRepairs ?? false);
      this.#state = "call";
    } catch (error) {
      // The mask cannot be built here (xgrammar failed to load or compile): the call goes on unconstrained
      // and the format's parser still reports a malformed one; the generation is never lost for it.
      console.warn(`[web-agents] Tool calls are not constrained in this generation: ${error instanceof Error ? error.message : String(error)}`);
      this.#state = "free";
      this.#options = { ...this.#options, toolChoice: "auto" };
      this.#disabled = true;
    }
  }

  async #planner(): Promise<PlannerGrammar | undefined> {
    try {
      return await this.#options.createPlanner?.();
    } catch {
      // The grammar could not be read for planning: the call is masked only (the loader said why).
      return undefined;
    }
  }

  /** `auto`, near the limit: how many tokens the shortest call takes, learnt in the background (the text streams on). */
  #learnShortestCall(): void {
    if (this.#state !== "free" || this.#options.toolChoice !== "auto" || this.#disabled || this.#shortestCallAsked) return;
    // Not before the first token is out: asking builds the grammar, which would hold that token up.
    if (this.#generated === 0 || this.#options.maxNewTokens - this.#generated > OPENING_HORIZON) return;
    this.#shortestCallAsked = true;
    void this.#planner().then((planner) => {
      const cost = planner ? OpenCall.shortestCall(planner, this.#read().speller) : -1;
      if (cost >= 0) this.#shortestCall = cost;
    });
  }

  /**
   * The generation ended: what was sampled since the last step is read into
   * an open call (the last token may be its closer), and a call still open
   * (cut off, or aborted) lets its matcher go.
   */
  end(): void {
    for (const id of this.#pending.splice(0)) {
      if (this.#state !== "call") break;
      this.#generated += 1;
      this.#readInCall(id);
    }
    if (!this.#call) return;
    if (this.#call.repaired) this.#repairedCalls += 1;
    this.#call.dispose(false);
    this.#call = undefined;
    this.#state = "free";
  }

  #leaveCall(): void {
    if (this.#call!.repaired) this.#repairedCalls += 1;
    this.#call!.dispose();
    this.#call = undefined;
    this.#state = "free";
    this.#recent = "";
    this.#completedCalls += 1;
  }

  /** Masks `logits` (one row: the next token's) for the step {@link prepare} readied. */
  apply(logits: Float32Array): void {
    if (this.#disabled) return;
    const started = observed() ? performance.now() : 0;
    if (this.#state === "call") {
      this.#call!.apply(logits, this.#options.maxNewTokens - this.#generated);
      if (started) notify("step", { prepareMs: this.#prepareMs, applyMs: performance.now() - started, jumped: 0 });
      return;
    }
    // `none`, or a call that could not close in the tokens left: nothing may complete the opener.
    const closed = this.#options.toolChoice === "none" || (this.#shortestCall !== undefined && this.#options.maxNewTokens - this.#generated - 1 < this.#shortestCall);
    const opener = this.#opener;
    if (!opener) {
      // The first token (the vocabulary is read after it): the opener's own token is all that can be told apart.
      const id = this.#options.openerId;
      if (id === undefined) return;
      if (this.#state === "await") {
        const kept = logits[id]!;
        logits.fill(-Infinity);
        logits[id] = kept;
      } else if (closed) logits[id] = -Infinity;
      return;
    }
    const partial = opener.partial(this.#recent);
    if (this.#state === "await") {
      const keep = new Uint8Array(logits.length);
      for (const id of opener.pieces(partial)) keep[id] = 1;
      // After a thinking block, the template's blank line before the call.
      if (partial === 0 && this.#whitespace >= 0 && this.#whitespace < 2) {
        this.#options.texts.forEach((token, id) => {
          if (token && token.length + this.#whitespace <= 2 && NEWLINES.test(token)) keep[id] = 1;
        });
      }
      for (let id = 0; id < logits.length; id++) if (!keep[id]) logits[id] = -Infinity;
      return;
    }
    const { ids, exact } = opener.completing(partial);
    // Otherwise nothing may run past the opener in the same token.
    for (let index = 0; index < ids.length; index++) if (closed || !exact[index]) logits[ids[index]!] = -Infinity;
  }
}
