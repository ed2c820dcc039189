import type { ToolCallGrammar } from "../../models/model-format.js";
import { buildCallGrammar } from "./build-call-grammar.js";
import { PlannerGrammar } from "./completion-planner.js";
import { loadXGrammar } from "./load-xgrammar.js";
import { buildTokenizerTable } from "./tokenizer-table.js";
import { tokenizerState, type CompiledGrammar, type TokenizerLike, type TokenizerState } from "./tokenizer-state.js";
import { ToolCallConstraint, type ToolChoice } from "./tool-call-constraint.js";

type Transformers = typeof import("@huggingface/transformers");

/** Compiled call grammars kept per tokenizer (the tools of a few agents); the oldest is dropped. */
const MAX_GRAMMARS = 8;

/** Each compiled call grammar's planner grammar (undefined: its EBNF could not be read for planning). */
const planners = new WeakMap<CompiledGrammar, PlannerGrammar | undefined>();

/** The planner's reading of a call grammar; a grammar it cannot read leaves that call masked only, said once. */
function plannerFor(ebnf: string): PlannerGrammar | undefined {
  try {
    return PlannerGrammar.fromEbnf(ebnf);
  } catch (error) {
    console.warn(`[web-agents] Tool calls near the token limit may be cut: the call grammar could not be planned (${error instanceof Error ? error.message : String(error)}).`);
    return undefined;
  }
}

/** The call grammar for `grammar`'s tools, compiled once per tokenizer and tool set (its warnings told once, then). */
function compiledFor(state: TokenizerState, grammar: ToolCallGrammar): Promise<CompiledGrammar> {
  const key = JSON.stringify([grammar.syntax, grammar.callOpen, grammar.callClose, grammar.tools]);
  let compiled = state.grammars.get(key);
  if (!compiled) {
    compiled = (async () => {
      const xgrammar = await loadXGrammar();
      state.table ??= buildTokenizerTable(xgrammar, state.vocabulary);
      const table = await state.table;
      const { ebnf, warnings } = await buildCallGrammar(grammar, xgrammar);
      for (const line of warnings) console.warn(`[web-agents] ${line}`);
      const compiledGrammar = await table.compiler.compileGrammar(ebnf, "root");
      planners.set(compiledGrammar, plannerFor(ebnf));
      return compiledGrammar;
    })();
    compiled.catch(() => state.grammars.delete(key));
    state.grammars.set(key, compiled);
    if (state.grammars.size > MAX_GRAMMARS) {
      const [oldest, dropped] = state.grammars.entries().next().value as [string, Promise<CompiledGrammar>];
      state.grammars.delete(oldest);
      void dropped.then((grammar) => grammar.dispose()).catch(() => {});
    }
  }
  return compiled;
}

export interface ConstrainGenerationOptions {
  library: Transformers;
  tokenizer: unknown;
  /** The model's logits width (its config's `vocab_size`). */
  vocabSize: number;
  /** Ids that end the generation (the model's `eos_token_id`s). */
  stopIds: number[];
  grammar: ToolCallGrammar;
  toolChoice: ToolChoice;
  thinking: boolean;
  maxNewTokens: number;
}

/** What the engine adds to one `generate()` call. */
export interface ConstrainedGeneration {
  constraint: ToolCallConstraint;
  /** Spread into `generate()`'s options. */
  logitsProcessor: unknown;
  /** Added to `generate()`'s stopping criteria: it sees each sampled token (and never stops anything). */
  observer: unknown;
  /** Awaited before every forward pass of that `generate()`. */
  beforeForward: () => Promise<void>;
}

/**
 * Wires a {@link ToolCallConstraint} into transformers.js's `generate()`: a
 * stopping criterion that sees each sampled token, a hook awaited before
 * every forward pass (xgrammar's mask is computed there: its calls are
 * async), and a logits processor that applies the mask (transformers.js calls
 * it synchronously, and it must return the logits). xgrammar is loaded and the
 * grammar compiled only when a call opens; nothing is done before the first token.
 */
export function constrainGeneration(options: ConstrainGenerationOptions): ConstrainedGeneration {
  const { library } = options;
  const state = tokenizerState(options.tokenizer as TokenizerLike, options.vocabSize, options.stopIds);
  const constraint = new ToolCallConstraint({
    grammar: options.grammar,
    texts: state.vocabulary.texts,
    encoded: state.vocabulary.encoded,
    toolChoice: options.toolChoice,
    thinking: options.thinking,
    maxNewTokens: options.maxNewTokens,
    createMatcher: async () => {
      const compiled = await compiledFor(state, options.grammar);
      const xgrammar = await loadXGrammar();
      return xgrammar.GrammarMatcher.createGrammarMatcher(compiled, undefined, true);
    },
    createPlanner: async () => planners.get(await compiledFor(state, options.grammar)),
  });
  class ConstraintProcessor extends library.LogitsProcessor {
    override _call(_inputIds: bigint[][], logits: never) {
      constraint.apply((logits as unknown as { data: Float32Array }[])[0]!.data);
      return logits;
    }
  }
  class TokenObserver extends library.StoppingCriteria {
    // transformers.js passes bigint ids (its .d.ts says number).
    override _call(inputIds: number[][]): boolean[] {
      const last = (inputIds as unknown as bigint[][])[0]?.at(-1);
      if (last !== undefined) constraint.observe(Number(last));
      return inputIds.map(() => false);
    }
  }
  const list = new library.LogitsProcessorList();
  list.push(new ConstraintProcessor() as never);
  return { constraint, logitsProcessor: list, observer: new TokenObserver(), beforeForward: () => constraint.prepare() };
}
