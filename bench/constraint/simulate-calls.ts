import type { ModelFormat } from "../../models/model-format.js";
import { buildCallGrammar } from "../../worker/tool-call-constraint/build-call-grammar.js";
import { PlannerGrammar } from "../../worker/tool-call-constraint/completion-planner.js";
import type { XGrammar } from "../../worker/tool-call-constraint/load-xgrammar.js";
import type { TokenizerTable } from "../../worker/tool-call-constraint/tokenizer-table.js";
import { ToolCallConstraint } from "../../worker/tool-call-constraint/tool-call-constraint.js";
import { randomTools, seededRandom } from "./random-json-schema.js";

/**
 * The constraint alone, no model: `calls` calls in `required` mode over random
 * schemas, each token drawn uniformly from what the mask allows (the worst
 * case for a mask: any allowed token, long strings). Returns the per-token
 * milliseconds of `prepare` (the matcher, xgrammar's bitmask, the planner's
 * shortest completion) and `apply` (the mask, and near the budget the
 * planner's candidate checks).
 */
export async function simulateCalls(options: { xgrammar: XGrammar; table: TokenizerTable; format: ModelFormat; calls: number; maxNewTokens: number; seed: number; verbose?: boolean }) {
  const { xgrammar, table, format } = options;
  const random = seededRandom(options.seed);
  const prepareMs: number[] = [];
  const applyMs: number[] = [];
  const logits = new Float32Array(table.vocabulary.vocabSize);
  for (let call = 0; call < options.calls; call++) {
    const grammar = format.grammar(randomTools(options.seed * 100 + call, 2));
    const { ebnf } = await buildCallGrammar(grammar, xgrammar);
    const compiled = await table.compiler.compileGrammar(ebnf, "root");
    const planner = PlannerGrammar.fromEbnf(ebnf);
    const constraint = new ToolCallConstraint({
      grammar,
      texts: table.vocabulary.texts,
      encoded: table.vocabulary.encoded,
      toolChoice: "required",
      thinking: false,
      maxNewTokens: options.maxNewTokens,
      createMatcher: () => xgrammar.GrammarMatcher.createGrammarMatcher(compiled, undefined, true),
      createPlanner: async () => planner,
    });
    for (let step = 0; step < options.maxNewTokens; step++) {
      await constraint.prepare();
      logits.fill(0);
      constraint.apply(logits);
      const allowed: number[] = [];
      for (let id = 0; id < logits.length; id++) if (logits[id] !== -Infinity) allowed.push(id);
      if (!allowed.length) break;
      constraint.observe(allowed[Math.floor(random() * allowed.length)]!);
      if (constraint.completedCalls > 0) break;
    }
    if (options.verbose) console.log(`  call ${call}: ${constraint.prepareMs.length} tokens, prepare max ${Math.max(0, ...constraint.prepareMs).toFixed(1)} ms, apply max ${Math.max(0, ...constraint.applyMs).toFixed(1)} ms`);
    prepareMs.push(...constraint.prepareMs.slice(1));
    applyMs.push(...constraint.applyMs);
    compiled.dispose();
  }
  return { prepareMs, applyMs };
}
