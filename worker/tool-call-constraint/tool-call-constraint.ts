import type { ToolCallGrammar } from "../../models/model-format.js";
import { closingRanks } from "./closing-tokens.js";
import { OpenerMasks } from "./opener-masks.js";

/** Whether a generation may, must, or must not call a tool. */
export type ToolChoice = "auto" | "required" | "none";

/** The part of xgrammar's GrammarMatcher the constraint drives. */
export interface CallMatcher {
  acceptToken(id: number): boolean;
  findJumpForwardString(): string;
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
  /** Inside a call with this many tokens left or fewer, the closing heuristic steers (default half of `maxNewTokens`, 16 to 64). */
  closingReserve?: number;
}

type State = "free" | "think" | "await" | "call";

const THINK_CLOSE = "</think>";

/**
 * One generation's tool-call constraint, as a state machine over the sampled
 * tokens. `auto`: text and thinking flow freely until the format's opener,
 * then every token is masked by the call's grammar until its closer, then
 * free again. `required`: outside a thinking block only the opener may come
 * (a token or its pieces), then the call. `none`: no token may complete the
 * opener. Near `maxNewTokens` inside a call, the closing heuristic steers.
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
  /** The text the grammar forces next (xgrammar's jump-forward string), read only near the budget. */
  #forced = "";
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

  constructor(options: ToolCallConstraintOptions) {
    this.#options = options;
    this.#opener = OpenerMasks.for(options.grammar.callOpen, options.texts);
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
        if (!accepted || matcher.isTerminated()) this.#leaveCall();
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
    this.#forced = this.#state === "call" && this.#closing() ? this.#matcher!.findJumpForwardString() : "";
    if (wasInCall || this.#state === "call") {
      this.maskMs.push(performance.now() - started);
      this.prepareMs.push(this.maskMs.at(-1)!);
    }
  }

  /** Inside a call near the budget: the closing heuristic steers. */
  #closing(): boolean {
    const reserve = this.#options.closingReserve ?? Math.min(64, Math.max(16, Math.floor(this.#options.maxNewTokens / 2)));
    return this.#options.maxNewTokens - this.#generated <= reserve;
  }

  #leaveCall() {
    this.#matcher?.dispose();
    this.#matcher = undefined;
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
        const none = this.#options.toolChoice === "none";
        // `none`: nothing may complete the opener; otherwise nothing may run past it in the same token.
        for (let index = 0; index < ids.length; index++) if (none || !exact[index]) logits[ids[index]!] = -Infinity;
      }
    }
  }

  #applyCall(logits: Float32Array) {
    const bitmask = this.#bitmask!;
    const allowed = (id: number) => ((bitmask[id >> 5]! >>> (id & 31)) & 1) === 1;
    const closing = this.#closing();
    const ranks = closing ? closingRanks(this.#options.texts, this.#options.grammar) : undefined;
    let best = 0;
    for (let id = 0; id < logits.length; id++) {
      if (!allowed(id)) logits[id] = -Infinity;
      else if (ranks && ranks[id]! > best) best = ranks[id]!;
    }
    if (ranks && best > 0) {
      for (let id = 0; id < logits.length; id++) if (ranks[id] !== best) logits[id] = -Infinity;
    } else if (closing && this.#forced) {
      // Nothing closes yet, but the grammar forces text (a required key, an enum's rest): the longest step along it.
      const texts = this.#options.texts;
      let longest = 0;
      for (let id = 0; id < logits.length; id++) {
        const text = texts[id];
        if (logits[id] !== -Infinity && text && text.length > longest && this.#forced.startsWith(text)) longest = text.length;
      }
      if (longest > 0) {
        for (let id = 0; id < logits.length; id++) if (logits[id] !== -Infinity && !(texts[id]!.length === longest && this.#forced.startsWith(texts[id]!))) logits[id] = -Infinity;
      }
    }
  }
}
