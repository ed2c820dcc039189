import type { ToolCallGrammar } from "../../models/model-format.js";
import { toByteLevel } from "./byte-level-alphabet.js";
import { CompletionPlanner, type PlannerGrammar } from "./completion-planner.js";
import { OpenerMasks } from "./opener-masks.js";
import { TokenSpeller } from "./token-speller.js";
import { Utf8Shapes, type Utf8State } from "./utf8-shapes.js";

/** Whether a generation may, must, or must not call a tool. */
export type ToolChoice = "auto" | "required" | "none";

/** The part of xgrammar's GrammarMatcher the constraint drives. */
export interface CallMatcher {
  acceptToken(id: number): boolean;
  getNextTokenBitmask(): Promise<Int32Array>;
  isTerminated(): boolean;
  dispose(): void;
}

export interface ToolCallConstraintOptions {
  grammar: Pick<ToolCallGrammar, "syntax" | "callOpen" | "callClose">;
  /** Each token id's text ("" for special tokens), from the tokenizer's vocabulary. */
  texts: readonly string[];
  toolChoice: ToolChoice;
  /** The prompt left the model thinking: `required` lets it finish its `<think>` block first. */
  thinking: boolean;
  maxNewTokens: number;
  /** A matcher for one call's body (after the opener, through the closer); called when a call opens. */
  createMatcher: () => Promise<CallMatcher>;
  /**
   * The same call grammar for the completion planner (budget-aware closing);
   * called when a call opens. Without it (or when it fails) a call near
   * `maxNewTokens` is only masked, and may be cut.
   */
  createPlanner?: () => Promise<PlannerGrammar | undefined>;
  /** Each id as the vocabulary writes it (byte-level characters, "" for special tokens). Default: `texts`, so written. */
  encoded?: readonly string[];
}

/**
 * Inside a call, when the shortest completion leaves fewer spare tokens than
 * this, each step keeps only tokens after which the call still fits.
 */
const CLOSING_BAND = 24;
/** How many of the likeliest allowed tokens are tried in the band (the rest are masked there). */
const CLOSING_CANDIDATES = 8;
/**
 * `auto`, outside a call, with this many tokens left or fewer: the constraint
 * learns how many tokens the shortest call takes (the call grammar loads in
 * the background if no call opened yet) and from then on lets no call open
 * that could not close in time.
 */
const OPENING_HORIZON = 64;

type State = "free" | "think" | "await" | "call";

const THINK_CLOSE = "</think>";

/**
 * One generation's tool-call constraint, as a state machine over the sampled
 * tokens. `auto`: text and thinking flow freely until the format's opener,
 * then every token is masked by the call's grammar until its closer, then
 * free again. `required`: outside a thinking block only the opener may come
 * (a token or its pieces), then the call. `none`: no token may complete the
 * opener.
 *
 * Budget-aware closing: inside a call, a {@link CompletionPlanner} over the
 * same grammar knows the shortest text that completes the call, and so how
 * many tokens that takes (greedily spelt). When the tokens left come within
 * {@link CLOSING_BAND} of it, each step keeps only the likeliest allowed
 * tokens after which the call still fits in what is left; when none does,
 * the constraint writes the shortest completion itself, token by token, which
 * fits by construction. In `auto`, a call may not open without room for its
 * shortest form. So every call closes valid by `maxNewTokens`, unless a
 * single token far from the band grows the shortest completion by more than
 * the band (a deeply nested required structure opened at once), or `required`
 * asks for a call that `maxNewTokens` cannot hold at all.
 *
 * Drive it per step: {@link observe} each sampled token (synchronous, from a
 * stopping criterion), await {@link prepare} before the next forward pass
 * (feeds the matcher, computes the mask: xgrammar's calls are async), then
 * {@link apply} the mask to that pass's logits (synchronous, from a logits processor).
 */
export class ToolCallConstraint {
  #options: ToolCallConstraintOptions;
  #disabled = false;
  readonly #opener: OpenerMasks;
  #state: State;
  #recent = "";
  #pending: number[] = [];
  #generated = 0;
  #matcher?: CallMatcher;
  #bitmask?: Int32Array;
  readonly #speller: TokenSpeller;
  readonly #utf8: Utf8Shapes;
  /** Where the call's text stands in UTF-8 (mid-character or not). */
  #utf8State: Utf8State = 0;
  #planner?: CompletionPlanner;
  /** Tokens the shortest completion of the open call takes (-1: not known now). */
  #cost = -1;
  /** The shortest completion's tokens, once the constraint writes it itself. */
  #plan: number[] = [];
  /** Whether the open call's end is being written from the plan. */
  #planned = false;
  /** Tokens the shortest call takes after the opener (`auto`, near the limit); undefined: not known. */
  #shortestCall?: number;
  #shortestCallAsked = false;
  /** Whitespace written since a thinking block closed (`required` lets the template's blank line through); -1: none allowed. */
  #whitespace = -1;
  /** Milliseconds spent per token inside calls (feeding the matcher and computing the mask), for the bench. */
  readonly maskMs: number[] = [];
  /** The same split: `prepare` (matcher and xgrammar's bitmask) and `apply` (the logits), per token inside calls. */
  readonly prepareMs: number[] = [];
  readonly applyMs: number[] = [];
  /** Tokens the matcher refused (sampled although masked: never expected; the call then goes on unconstrained). */
  readonly rejected: number[] = [];
  /** Calls that opened and closed under the constraint. */
  completedCalls = 0;
  /** Steps inside calls where the budget narrowed the allowed tokens (to those after which the call still fits). */
  closingSteps = 0;
  /** Calls the constraint finished by writing their shortest completion. */
  plannedCalls = 0;
  /** Calls in which the planner and xgrammar disagreed (never expected; the call went on masked only). */
  plannerLost = 0;

  constructor(options: ToolCallConstraintOptions) {
    this.#options = options;
    this.#opener = OpenerMasks.for(options.grammar.callOpen, options.texts);
    const encoded = options.encoded ?? encodedTexts(options.texts);
    this.#speller = TokenSpeller.for(encoded);
    this.#utf8 = Utf8Shapes.for(encoded);
    this.#state = options.toolChoice === "required" ? (options.thinking ? "think" : "await") : "free";
  }

  /** A token was sampled. */
  observe(id: number): void {
    this.#pending.push(id);
  }

  /** Whether the constraint is inside a call now. */
  get inCall(): boolean {
    return this.#state === "call";
  }

  /** Feeds what was sampled since the last step and computes the next step's mask. */
  async prepare(): Promise<void> {
    const started = performance.now();
    const wasInCall = this.#state === "call";
    for (const id of this.#pending.splice(0)) {
      this.#generated += 1;
      if (this.#state === "call") {
        const matcher = this.#matcher!;
        const accepted = matcher.acceptToken(id);
        if (!accepted) this.rejected.push(id);
        if (!accepted || matcher.isTerminated()) {
          this.#leaveCall();
          continue;
        }
        this.#utf8State = Math.max(0, this.#utf8.after(id, this.#utf8State));
        if (this.#plan.length) this.#plan = this.#plan[0] === id ? this.#plan.slice(1) : [];
        if (this.#planner && !this.#planner.feedBytes(this.#speller.bytesOf(id))) this.#losePlanner();
        continue;
      }
      this.#recent = (this.#recent + (this.#options.texts[id] ?? "")).slice(-64);
      if (this.#state === "await" && this.#whitespace >= 0) this.#whitespace += (this.#options.texts[id] ?? "").length;
      if (this.#state === "think") {
        const close = this.#recent.lastIndexOf(THINK_CLOSE);
        if (close !== -1) {
          this.#recent = this.#recent.slice(close + THINK_CLOSE.length);
          this.#state = this.#options.toolChoice === "required" && this.completedCalls === 0 ? "await" : "free";
          this.#whitespace = this.#recent.length;
        }
      }
      if (!this.#disabled && this.#options.toolChoice !== "none" && this.#recent.endsWith(this.#options.grammar.callOpen)) {
        this.#recent = "";
        try {
          this.#matcher = await this.#options.createMatcher();
          this.#state = "call";
          this.#utf8State = 0;
          this.#planner = await this.#createPlanner();
        } catch (error) {
          // The mask cannot be built here (xgrammar failed to load or compile): the call goes on unconstrained
          // and the format's parser still reports a malformed one; the generation is never lost for it.
          console.warn(`[web-agents] Tool calls are not constrained in this generation: ${error instanceof Error ? error.message : String(error)}`);
          this.#state = "free";
          this.#options = { ...this.#options, toolChoice: "auto" };
          this.#disabled = true;
        }
      }
    }
    this.#bitmask = this.#state === "call" ? await this.#matcher!.getNextTokenBitmask() : undefined;
    this.#cost = this.#planner ? this.#costOf(this.#planner) : -1;
    if (this.#state === "free" && this.#options.toolChoice === "auto" && !this.#disabled && !this.#shortestCallAsked && this.#options.maxNewTokens - this.#generated <= OPENING_HORIZON) {
      // Not awaited: the text streams on while the call grammar loads (xgrammar's chunk, if no call opened yet);
      // from the step it is known, no call opens that could not close.
      this.#shortestCallAsked = true;
      void this.#createPlanner().then((planner) => {
        const cost = planner ? this.#costOf(planner) : -1;
        if (cost >= 0) this.#shortestCall = cost;
      });
    }
    if (wasInCall || this.#state === "call") {
      this.maskMs.push(performance.now() - started);
      this.prepareMs.push(this.maskMs.at(-1)!);
    }
  }

  async #createPlanner(): Promise<CompletionPlanner | undefined> {
    try {
      const grammar = await this.#options.createPlanner?.();
      return grammar && new CompletionPlanner(grammar);
    } catch {
      // The grammar could not be read for planning: the call is masked only (the loader said why).
      return undefined;
    }
  }

  /** Tokens the planner's shortest completion takes; -1 when it cannot say now (half a character read). */
  #costOf(planner: CompletionPlanner): number {
    const completion = planner.completion();
    return completion === undefined ? -1 : (this.#speller.spell(completion)?.length ?? -1);
  }

  #losePlanner() {
    this.#planner = undefined;
    this.#plan = [];
    this.plannerLost += 1;
  }

  #leaveCall() {
    this.#matcher?.dispose();
    this.#matcher = undefined;
    if (this.#planned) this.plannedCalls += 1;
    this.#planned = false;
    this.#planner = undefined;
    this.#plan = [];
    this.#cost = -1;
    this.#state = "free";
    this.#recent = "";
    this.completedCalls += 1;
  }

  /** Masks `logits` (one row: the next token's) for the step {@link prepare} readied. */
  apply(logits: Float32Array): void {
    if (this.#disabled) return;
    const started = performance.now();
    const partial = this.#opener.partial(this.#recent);
    switch (this.#state) {
      case "call":
        this.#applyCall(logits);
        this.applyMs.push(performance.now() - started);
        this.maskMs[this.maskMs.length - 1]! += this.applyMs.at(-1)!;
        return;
      case "await": {
        const keep = new Uint8Array(logits.length);
        for (const id of this.#opener.pieces(partial)) keep[id] = 1;
        // After a thinking block, the template's blank line before the call.
        if (partial === 0 && this.#whitespace >= 0 && this.#whitespace < 2) {
          this.#options.texts.forEach((text, id) => {
            if (text && text.length + this.#whitespace <= 2 && /^\n+$/.test(text)) keep[id] = 1;
          });
        }
        for (let id = 0; id < logits.length; id++) if (!keep[id]) logits[id] = -Infinity;
        return;
      }
      default: {
        const { ids, exact } = this.#opener.completing(partial);
        // `none`, or a call that could not close in the tokens left: nothing may complete the opener.
        const closed = this.#options.toolChoice === "none" || (this.#shortestCall !== undefined && this.#options.maxNewTokens - this.#generated - 1 < this.#shortestCall);
        // Otherwise nothing may run past the opener in the same token.
        for (let index = 0; index < ids.length; index++) if (closed || !exact[index]) logits[ids[index]!] = -Infinity;
      }
    }
  }

  #applyCall(logits: Float32Array) {
    const bitmask = this.#bitmask!;
    const utf8 = this.#utf8.table(this.#utf8State);
    // xgrammar's mask, and well-formed UTF-8 (xgrammar takes C0/F5 lead bytes, overlong forms and surrogates).
    for (let id = 0; id < logits.length; id++) if (((bitmask[id >> 5]! >>> (id & 31)) & 1) === 0 || !(utf8[id]! >= 0)) logits[id] = -Infinity;
    const planner = this.#planner;
    if (!planner) return;
    const left = this.#options.maxNewTokens - this.#generated;
    if (this.#plan.length) return this.#force(logits, this.#plan[0]!);
    if (this.#cost < 0 || left - 1 - this.#cost >= CLOSING_BAND) return;
    // In the band: of the likeliest allowed tokens, those after which the shortest completion still fits.
    this.closingSteps += 1;
    const fitting = likeliest(logits, CLOSING_CANDIDATES).filter((id) => {
      const fork = planner.fork();
      if (!fork.feedBytes(this.#speller.bytesOf(id))) return false;
      const cost = this.#costOf(fork);
      return cost >= 0 && cost <= left - 1;
    });
    if (fitting.length) {
      const keep = new Set(fitting);
      for (let id = 0; id < logits.length; id++) if (!keep.has(id)) logits[id] = -Infinity;
      return;
    }
    // None fits: write the shortest completion, which fits the tokens left by construction.
    this.#plan = this.#speller.spell(planner.completion() ?? "") ?? [];
    this.#planned = this.#plan.length > 0;
    if (this.#plan.length) this.#force(logits, this.#plan[0]!);
  }

  /** Only `id` may come (unless the grammar refuses it: then the planner is wrong, and steps aside). */
  #force(logits: Float32Array, id: number) {
    if (logits[id] === -Infinity) return this.#losePlanner();
    const kept = logits[id]!;
    logits.fill(-Infinity);
    logits[id] = kept;
  }
}

/** The ids of the `count` highest finite logits. */
function likeliest(logits: Float32Array, count: number): number[] {
  const ids: number[] = [];
  for (let id = 0; id < logits.length; id++) {
    const value = logits[id]!;
    if (value === -Infinity) continue;
    if (ids.length === count && value <= logits[ids[count - 1]!]!) continue;
    let at = ids.length < count ? ids.length : count - 1;
    ids[at] = id;
    while (at > 0 && logits[ids[at - 1]!]! < value) {
      ids[at] = ids[at - 1]!;
      ids[--at] = id;
    }
  }
  return ids;
}

const encodedCache = new WeakMap<readonly string[], string[]>();

/** A raw vocabulary's texts written as byte-level tokens (for a vocabulary given as text only). */
function encodedTexts(texts: readonly string[]): string[] {
  let encoded = encodedCache.get(texts);
  if (!encoded) encodedCache.set(texts, (encoded = texts.map((text) => (text ? toByteLevel(text) : ""))));
  return encoded;
}
