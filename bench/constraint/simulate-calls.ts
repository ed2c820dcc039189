import type { ModelFormat } from "../../models/model-format.js";
import { ToolCallConstraint } from "../../worker/tool-call-constraint/tool-call-constraint.js";
import { TokenBytes } from "../../worker/tool-call-constraint/vocabulary/token-bytes.js";
import type { Vocabulary } from "../../worker/tool-call-constraint/vocabulary/tokenizer-vocabulary.js";
import type { XGrammarTokenizer } from "../../worker/tool-call-constraint/vocabulary/xgrammar-tokenizer.js";
import { jsonSchemaValidator } from "./json-schema-validator.js";
import { randomTools, seededRandom } from "./random-json-schema.js";

/** What a simulated run found. */
export interface SimulatedCalls {
  calls: number;
  valid: number;
  /** Up to five failures (why, and the text). */
  failures: string[];
}

/**
 * The constraint alone, no model: `calls` calls in `required` mode over
 * random tool sets, each token drawn uniformly from what the mask allows (the
 * worst case for the bounds: long whitespace runs, strings driven to their
 * limits, any token at all), each call read by the format's parser and
 * checked by ajv. Per-token timings go to the attached counters.
 */
export async function simulateCalls(options: { table: XGrammarTokenizer; vocabulary: Vocabulary; format: ModelFormat; toolSets: number; callsPerSet: number; maxNewTokens: number; seed: number }): Promise<SimulatedCalls> {
  const { table, vocabulary, format } = options;
  const random = seededRandom(options.seed);
  const bytes = TokenBytes.for(vocabulary);
  const ajv = jsonSchemaValidator();
  const result: SimulatedCalls = { calls: 0, valid: 0, failures: [] };
  const logits = new Float32Array(vocabulary.vocabSize);
  const allowed = new Int32Array(vocabulary.vocabSize);
  for (let set = 0; set < options.toolSets; set++) {
    const tools = randomTools(options.seed * 100 + set, 2);
    const grammar = format.grammar(tools);
    for (let call = 0; call < options.callsPerSet; call++) {
      const constraint = new ToolCallConstraint({
        grammar,
        texts: vocabulary.encoded,
        vocabulary: () => vocabulary,
        toolChoice: "required",
        thinking: false,
        maxNewTokens: options.maxNewTokens,
        createMatcher: async () => table.xgrammar.GrammarMatcher.createGrammarMatcher((await table.compile(grammar)).compiled, undefined, true),
        createPlanner: async () => (await table.compile(grammar)).planner,
      });
      const written: number[] = [];
      for (let step = 0; step < options.maxNewTokens && constraint.completedCalls === 0; step++) {
        written.push(...(await constraint.prepare()));
        logits.fill(0);
        constraint.apply(logits);
        let count = 0;
        for (let id = 0; id < logits.length; id++) if (logits[id] !== -Infinity) allowed[count++] = id;
        if (!count) break;
        const id = allowed[Math.floor(random() * count)]!;
        written.push(id);
        constraint.observe(id);
      }
      await constraint.prepare();
      const text = new TextDecoder().decode(Uint8Array.from(written.flatMap((id) => [...bytes.of(id)])));
      const parser = format.createParser({ tools, thinking: false });
      const parsed = [...parser.push(text), ...parser.end()].find((event) => event.type === "tool-call" || event.type === "tool-call-invalid");
      result.calls += 1;
      const tool = parsed?.type === "tool-call" ? tools.find((candidate) => candidate.name === parsed.name) : undefined;
      if (parsed?.type === "tool-call" && tool && ajv.valid(tool.inputSchema, parsed.input)) result.valid += 1;
      else if (result.failures.length < 5) result.failures.push(`${parsed?.type === "tool-call-invalid" ? parsed.error : parsed ? ajv.errors() : "no call"}: ${JSON.stringify(text).slice(0, 300)}`);
    }
  }
  return result;
}
