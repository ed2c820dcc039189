import { modelFormat } from "../../models/model-formats.js";
import type { GenerateRequest } from "../protocol.js";
import { tokenizerState, type TokenizerLike } from "./tokenizer-state.js";
import { ToolCallConstraint } from "./tool-call-constraint.js";

type Transformers = typeof import("@huggingface/transformers");

/** The model as the constraint reads it: its logits width and end-of-turn ids. */
interface ModelLike {
  config?: { vocab_size?: number; text_config?: { vocab_size?: number } };
  generation_config?: { eos_token_id?: number | number[] | null };
}

/** A forward pass's inputs as transformers.js 4.3's `generate()` builds them (Tensors). */
interface ForwardInputs {
  input_ids?: { data: BigInt64Array; dims: number[] };
  attention_mask?: { data: BigInt64Array; dims: number[] };
  position_ids?: { data: BigInt64Array; dims: number[] } | null;
}

const ids = (value: unknown): number[] => (Array.isArray(value) ? value : [value]).filter((id): id is number => typeof id === "number");

/** The logits width and end-of-turn ids the constraint needs, or undefined where the model does not say. */
function modelFacts(model: unknown, tokenizer: unknown): { vocabSize: number; stopIds: number[] } | undefined {
  const { config, generation_config } = model as ModelLike;
  // A multimodal config keeps the language model's under text_config.
  const vocabSize = config?.vocab_size ?? config?.text_config?.vocab_size;
  if (typeof vocabSize !== "number") return undefined;
  return { vocabSize, stopIds: [...ids(generation_config?.eos_token_id), ...ids((tokenizer as { eos_token_id?: number | null }).eos_token_id)] };
}

/** Runs `task` in a later task, not now: what it builds is off the path of the pass about to run. */
function later(task: () => unknown): void {
  const run = () => void Promise.resolve().then(task).catch(() => {});
  if (typeof setImmediate === "function") setImmediate(run);
  else setTimeout(run, 0);
}

/** What the engine adds to one `generate()` call. */
export interface ConstrainedGeneration {
  constraint: ToolCallConstraint;
  /** Spread into `generate()`'s options. */
  logitsProcessor: unknown;
  /** Added to `generate()`'s stopping criteria: it sees each sampled token (and never stops anything). */
  observer: unknown;
  /**
   * Awaited before every forward pass, with that pass's inputs: the mask is
   * computed here (xgrammar's calls are async), and where the grammar fixes
   * the next tokens they are written ahead into the same pass (jump-forward):
   * appended to its `input_ids` (mask and positions extended to match) and
   * to the generation's sequence, and handed to `onAhead`.
   */
  beforeForward: (inputs: unknown) => Promise<void>;
  /** Called once `generate()` returned or threw: the last token read, an open call let go. */
  done: () => void;
}

/**
 * The constraint one transformers.js generation runs under, or undefined for
 * none: `constrainToolCalls: false` (then nothing of the constraint is read
 * or built), nothing to constrain (`auto` / `required` with no tools
 * offered; `required` then behaves as `auto`), or a tokenizer the constraint
 * cannot read. `none` forbids the call opener whether or not tools are
 * offered. Outside calls it reads the tokenizer's own texts; the
 * vocabulary, xgrammar's table and the tool set's grammar are built in a
 * later task once the first token is out (or after a generation too short
 * for that), and kept for later generations; only a call that opens before
 * they are ready waits for them.
 */
export function constraintForRequest(
  request: Pick<GenerateRequest, "tools" | "toolChoice" | "constrainToolCalls" | "enableThinking" | "model" | "reportRepairs">,
  context: { library: Transformers; tokenizer: unknown; model: unknown; maxNewTokens: number; jumpForward?: boolean; onAhead?: (ids: number[]) => void },
): ConstrainedGeneration | undefined {
  const toolChoice = request.toolChoice ?? "auto";
  if (request.constrainToolCalls === false) return undefined;
  if (toolChoice !== "none" && request.tools.length === 0) return undefined;
  const facts = modelFacts(context.model, context.tokenizer);
  if (!facts) return undefined;
  let state;
  try {
    state = tokenizerState(context.tokenizer as TokenizerLike, facts.vocabSize, facts.stopIds);
  } catch {
    return undefined;
  }
  const grammar = modelFormat(request.model.format).grammar(request.tools);
  const tokenizer = context.tokenizer as { encode(text: string, options: object): number[]; _tokenizer?: { model?: { vocab?: unknown } } };
  // transformers.js 4.3 keeps each id's byte-level text in its BPE model: read as it is, nothing built.
  const ownTexts = tokenizer._tokenizer?.model?.vocab;
  const texts = Array.isArray(ownTexts) ? (ownTexts as string[]) : state.readVocabulary().encoded;
  const compiled = () => state.xgrammar().then((table) => table.compile(grammar));
  const constraint = new ToolCallConstraint({
    grammar,
    texts,
    vocabulary: () => state.readVocabulary(),
    ...(state.addedTokenId(grammar.callOpen) !== undefined && { openerId: state.addedTokenId(grammar.callOpen)! }),
    toolChoice,
    thinking: request.enableThinking ?? false,
    maxNewTokens: context.maxNewTokens,
    createMatcher: async () => {
      const { compiled: call } = await compiled();
      const xgrammar = (await state.xgrammar()).xgrammar;
      return xgrammar.GrammarMatcher.createGrammarMatcher(call, undefined, true);
    },
    createPlanner: async () => (await compiled()).planner,
    ...(context.jumpForward !== false && { encode: (text: string) => Array.from(tokenizer.encode(text, { add_special_tokens: false }), Number) }),
    countRepairs: request.reportRepairs === true,
  });
  const library = context.library;
  let sequence: bigint[] | undefined;
  let passes = 0;
  class ConstraintProcessor extends library.LogitsProcessor {
    override _call(_inputIds: bigint[][], logits: never) {
      constraint.apply((logits as unknown as { data: Float32Array }[])[0]!.data);
      return logits;
    }
  }
  class TokenObserver extends library.StoppingCriteria {
    // transformers.js passes its own sequence of bigint ids (its .d.ts says number): kept, so that tokens written ahead join it.
    override _call(inputIds: number[][]): boolean[] {
      sequence = (inputIds as unknown as bigint[][])[0];
      const last = sequence?.at(-1);
      if (last !== undefined) constraint.observe(Number(last));
      return inputIds.map(() => false);
    }
  }
  const list = new library.LogitsProcessorList();
  list.push(new ConstraintProcessor() as never);
  return {
    constraint,
    logitsProcessor: list,
    observer: new TokenObserver(),
    beforeForward: async (inputs) => {
      // Built once the first token is out (never before it), in a later task: ready, or nearly, when a call opens.
      if (++passes === 2 && toolChoice !== "none") later(compiled);
      const ahead = await constraint.prepare();
      if (!ahead.length) return;
      extendInputs(library, inputs as ForwardInputs, ahead);
      sequence?.push(...ahead.map(BigInt));
      context.onAhead?.(ahead);
    },
    done: () => {
      constraint.end();
      // A generation that ended before its second pass: built now, in the idle time before the next.
      if (passes < 2 && toolChoice !== "none") later(compiled);
    },
  };
}

/** This pass feeds `ahead` after its own token: ids, mask and (when given) positions extended by them. */
function extendInputs(library: Transformers, inputs: ForwardInputs, ahead: number[]): void {
  const { Tensor } = library;
  const count = ahead.length;
  const append = (tensor: { data: BigInt64Array; dims: number[] }, values: (index: number, last: bigint) => bigint) => {
    const rows = tensor.data.length / tensor.dims.at(-1)!;
    const width = tensor.dims.at(-1)!;
    const data = new BigInt64Array(rows * (width + count));
    for (let row = 0; row < rows; row++) {
      data.set(tensor.data.subarray(row * width, (row + 1) * width), row * (width + count));
      const last = tensor.data[(row + 1) * width - 1]!;
      for (let index = 0; index < count; index++) data[row * (width + count) + width + index] = values(index, last);
    }
    return new Tensor("int64", data, [...tensor.dims.slice(0, -1), width + count]) as unknown as { data: BigInt64Array; dims: number[] };
  };
  if (inputs.input_ids) inputs.input_ids = append(inputs.input_ids, (index) => BigInt(ahead[index]!));
  if (inputs.attention_mask) inputs.attention_mask = append(inputs.attention_mask, () => 1n);
  // Qwen3.5's rope positions are given before the pass (three rows); Qwen3's are made from the mask inside it.
  if (inputs.position_ids) inputs.position_ids = append(inputs.position_ids, (index, last) => last + BigInt(index + 1));
}
