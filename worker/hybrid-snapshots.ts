import { commonPrefixLength, disposeEntries, type KeptCache } from "./prefix-cache.js";

/** Prefills `tokens` from `base` (from nothing without one) and returns the state after them. */
export type Prefill = (tokens: bigint[], base: KeptCache | undefined) => Promise<KeptCache>;

/** Where a hybrid generation starts. */
export interface HybridStart {
  /**
   * The state at the prompt boundary (every prompt token but the last), to
   * generate from and to keep for the conversation's next step, with the
   * state at the turn's start on it (`turnStart`); undefined for a prompt
   * of one token.
   */
  snapshot: KeptCache | undefined;
  /** Prompt tokens taken from a kept state. */
  cachedPromptTokens: number;
}

/**
 * A hybrid cache (Qwen3.5's conv and recurrent states) cannot be cut back,
 * so a conversation keeps two states: at the last prompt's boundary (the
 * next step of the same turn extends it) and at the start of the reply to
 * the last user message, after its `<|im_start|>assistant\n` (`turnStart`,
 * the prompt's length there; the next user turn's prompt extends that one,
 * where the template re-renders the turn's assistant messages without their
 * think blocks). Starts from the longer of the two that this prompt's ids
 * extend, makes the turn's state on the way when it is new, and frees
 * whichever kept state it no longer needs.
 */
export async function startHybrid(ids: readonly bigint[], kept: KeptCache | undefined, turnStart: number | undefined, prefill: Prefill): Promise<HybridStart> {
  const boundary = ids.length - 1;
  const extends_ = (cache: KeptCache | undefined): cache is KeptCache =>
    cache !== undefined && cache.tokens.length <= boundary && commonPrefixLength(cache.tokens, ids) === cache.tokens.length;
  const states = [kept && { ...kept, turnStart: undefined }, kept?.turnStart].filter(extends_);
  const base = states.reduce<KeptCache | undefined>((longest, state) => (!longest || state.tokens.length > longest.tokens.length ? state : longest), undefined);
  let turn = turnStart === undefined ? undefined : states.find((state) => state.tokens.length === turnStart);
  const kepts = [kept, kept?.turnStart].filter((state): state is KeptCache => state !== undefined);
  for (const state of kepts) if (state.entries !== base?.entries && state.entries !== turn?.entries) disposeEntries(state.entries);
  if (boundary <= 0) {
    disposeEntries(base?.entries);
    if (turn && turn.entries !== base?.entries) disposeEntries(turn.entries);
    return { snapshot: undefined, cachedPromptTokens: 0 };
  }
  let from = base;
  if (!turn && turnStart !== undefined && turnStart > (base?.tokens.length ?? 0) && turnStart < boundary) {
    turn = await prefill(ids.slice(0, turnStart), base);
    disposeEntries(base?.entries);
    from = turn;
  }
  let snapshot = from;
  if (!snapshot || snapshot.tokens.length !== boundary) {
    snapshot = await prefill(ids.slice(0, boundary), from);
    if (from && from.entries !== turn?.entries) disposeEntries(from.entries);
  }
  const keepTurn = turn && turn.entries !== snapshot.entries ? { modelKey: turn.modelKey, tokens: turn.tokens, entries: turn.entries } : undefined;
  return { snapshot: { modelKey: snapshot.modelKey, tokens: snapshot.tokens, entries: snapshot.entries, ...(keepTurn && { turnStart: keepTurn }) }, cachedPromptTokens: base?.tokens.length ?? 0 };
}

/** What {@link turnStartLength} needs of the tokenizer. */
export interface TemplateTokenizer {
  apply_chat_template(messages: never, options: never): unknown;
  encode(text: string, options?: { add_special_tokens?: boolean }): number[];
}

/**
 * The prompt's length at the start of the reply to its last user message,
 * after that reply's `<|im_start|>assistant\n`: the template rendered up to
 * the user message, plus the opener, checked token by token against `ids`;
 * undefined where they differ or there is no user message. `known` is a kept
 * turn start that still applies (the same number of user messages, its ids
 * a prefix of these), which saves rendering.
 */
export function turnStartLength(
  tokenizer: TemplateTokenizer,
  messages: readonly { role: string }[],
  options: Record<string, unknown>,
  ids: readonly bigint[],
  known?: { tokens: readonly bigint[]; userMessages?: number },
): { length: number; userMessages: number } | undefined {
  const userMessages = messages.filter((message) => message.role === "user").length;
  if (userMessages === 0) return undefined;
  if (known?.userMessages === userMessages && commonPrefixLength(known.tokens, ids) === known.tokens.length) return { length: known.tokens.length, userMessages };
  let last = messages.length - 1;
  while (messages[last]!.role !== "user") last--;
  const rendered = tokenizer.apply_chat_template(messages.slice(0, last + 1) as never, { ...options, add_generation_prompt: false, tokenize: true, return_tensor: false, return_dict: false } as never) as number[];
  const opener = tokenizer.encode("<|im_start|>assistant\n", { add_special_tokens: false });
  const expected = [...rendered, ...opener];
  if (expected.length >= ids.length || expected.some((id, index) => BigInt(id) !== ids[index])) return undefined;
  return { length: expected.length, userMessages };
}
