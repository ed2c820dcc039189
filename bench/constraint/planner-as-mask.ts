import type { ModelFormat } from "../../models/model-format.js";
import { buildCallGrammar } from "../../worker/tool-call-constraint/build-call-grammar.js";
import { CompletionPlanner, PlannerGrammar } from "../../worker/tool-call-constraint/completion-planner.js";
import type { XGrammar } from "../../worker/tool-call-constraint/load-xgrammar.js";
import { TokenSpeller } from "../../worker/tool-call-constraint/token-speller.js";
import type { TokenizerTable } from "../../worker/tool-call-constraint/tokenizer-table.js";
import { Utf8Shapes } from "../../worker/tool-call-constraint/utf8-shapes.js";
import { randomTools, seededRandom } from "./random-json-schema.js";

/**
 * The hand-written alternative to xgrammar, measured: the runtime's own
 * Earley planner used as a mask (each vocabulary token tried on a fork of the
 * parse, no per-state cache), at `steps` points of calls drawn uniformly from
 * xgrammar's mask. Returns its milliseconds per token and the tokens
 * allowed by one and not the other, past the two known differences: xgrammar
 * takes bytes that are not well-formed UTF-8 (the constraint refuses them
 * apart, utf8-shapes.ts), and a token ending mid-character cannot be judged by
 * the planner until the character is whole.
 */
export async function plannerAsMask(options: { xgrammar: XGrammar; table: TokenizerTable; format: ModelFormat; calls: number; steps: number; seed: number }) {
  const { xgrammar, table, format } = options;
  const random = seededRandom(options.seed);
  const speller = TokenSpeller.for(table.vocabulary.encoded);
  const maskMs: number[] = [];
  const utf8 = Utf8Shapes.for(table.vocabulary.encoded);
  let onlyXgrammar = 0;
  let onlyPlanner = 0;
  let illFormed = 0;
  let compared = 0;
  for (let call = 0; call < options.calls; call++) {
    const { ebnf } = await buildCallGrammar(format.grammar(randomTools(options.seed * 100 + call, 2)), xgrammar);
    const compiled = await table.compiler.compileGrammar(ebnf, "root");
    const matcher = await xgrammar.GrammarMatcher.createGrammarMatcher(compiled, undefined, true);
    const planner = new CompletionPlanner(PlannerGrammar.fromEbnf(ebnf));
    let state = 0;
    const measureAt = new Set(Array.from({ length: options.steps }, (_, index) => index * 7));
    for (let step = 0; step < options.steps * 7 && !matcher.isTerminated(); step++) {
      const bitmask = await matcher.getNextTokenBitmask();
      const allowed: number[] = [];
      for (let id = 0; id < table.vocabulary.vocabSize; id++) if ((bitmask[id >> 5]! >>> (id & 31)) & 1) allowed.push(id);
      if (!allowed.length) break;
      if (measureAt.has(step)) {
        const started = performance.now();
        const mine = new Set<number>();
        for (let id = 0; id < table.vocabulary.vocabSize; id++) {
          const bytes = speller.bytesOf(id);
          if (bytes.length && planner.fork().feedBytes(bytes)) mine.add(id);
        }
        maskMs.push(performance.now() - started);
        compared += 1;
        const theirs = new Set(allowed);
        for (const id of allowed) {
          if (mine.has(id)) continue;
          if (utf8.after(id, state) < 0) illFormed += 1;
          else onlyXgrammar += 1;
        }
        for (const id of mine) if (!theirs.has(id) && utf8.after(id, state) === 0) onlyPlanner += 1;
      }
      const id = allowed[Math.floor(random() * allowed.length)]!;
      matcher.acceptToken(id);
      planner.feedBytes(speller.bytesOf(id));
      state = Math.max(0, utf8.after(id, state));
    }
    matcher.dispose();
    compiled.dispose();
  }
  return { maskMs, compared, onlyXgrammar, onlyPlanner, illFormed };
}
