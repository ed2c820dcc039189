/**
 * The tool-call constraint's bench (issue #13), in Node on the CPU with the
 * real transformers.js and the generated test models:
 *
 * - validity: `--calls` sampled calls (temperature 1, `required`) over
 *   `--schemas` random schemas (tool sets of 2), spread over tiny (Qwen3
 *   shape) and tiny-qwen35 (Qwen3.5 shape) with both formats, checked with
 *   each format's parser and @cfworker/json-schema; `--unconstrained` calls
 *   of the same tool sets without the constraint, beside them;
 * - cost: on qwen3-0.6b-shaped-q8, decode speed inside a constrained call
 *   against the same model writing unconstrained text (paired rounds), the
 *   mask's milliseconds per token, time to first token with the constraint
 *   on and off outside calls (`auto`), and the one-time costs (vocabulary,
 *   xgrammar's tokenizer table, a grammar's compilation).
 */
import { dirname } from "node:path";
import { AutoTokenizer, env } from "@huggingface/transformers";
import { ensureTestModel, qwen3ShapedModel, tinyModel, tinyQwen35Model } from "../../models/test-models/index.js";
import { modelFormat } from "../../models/model-formats.js";
import type { GenerateRequest, GenerationUsage, ModelSource, RawEngineEvent } from "../../worker/protocol.js";
import { testModelSource } from "../../worker/test-fixtures/test-model-source.js";
import { buildCallGrammar } from "../../worker/tool-call-constraint/build-call-grammar.js";
import { loadXGrammar } from "../../worker/tool-call-constraint/load-xgrammar.js";
import { buildTokenizerTable, readVocabulary } from "../../worker/tool-call-constraint/tokenizer-table.js";
import { storedVocabularyIfValid, toStoredVocabulary, vocabularyFingerprint } from "../../worker/tool-call-constraint/vocabulary-cache.js";
import type { ToolCallConstraint } from "../../worker/tool-call-constraint/tool-call-constraint.js";
import { TransformersEngine } from "../../worker/transformers-engine.js";
import { randomTools } from "./random-json-schema.js";
import { describeFigures, sampleCalls, type CallFigures } from "./sample-calls.js";
import { plannerAsMask } from "./planner-as-mask.js";
import { simulateCalls } from "./simulate-calls.js";

const argument = (name: string, fallback: number) => {
  const index = process.argv.indexOf(`--${name}`);
  return index === -1 ? fallback : Number(process.argv[index + 1]);
};
const only = process.argv.includes("--only") ? process.argv[process.argv.indexOf("--only") + 1] : undefined;
const calls = argument("calls", 1000);
const schemas = argument("schemas", 200);
const unconstrained = argument("unconstrained", 1000);
const rounds = argument("rounds", 3);

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.floor(sorted.length / 2)]! : 0;
};
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]! : 0;
};

async function validity() {
  const [tiny] = await Promise.all([ensureTestModel(tinyModel()), ensureTestModel(tinyQwen35Model())]);
  const constraints: ToolCallConstraint[] = [];
  const engine = new TransformersEngine({ localModelPath: `${dirname(tiny.folder)}/`, onToolCallConstraint: (constraint) => constraints.push(constraint) });
  /** What the constraints of the generations since the last call did near the budget. */
  const closing = () => {
    const sum = (count: (constraint: ToolCallConstraint) => number) => constraints.reduce((total, constraint) => total + count(constraint), 0);
    const line = `budget-aware closing: ${sum((c) => c.closingSteps)} steps narrowed, ${sum((c) => c.plannedCalls)} calls finished by writing their shortest completion, planner lost ${sum((c) => c.plannerLost)}, tokens xgrammar refused ${sum((c) => c.rejected.length)}`;
    constraints.length = 0;
    return line;
  };
  const combos: [string, ModelSource][] = [
    ["tiny (Qwen3 shape), Hermes JSON", testModelSource("tiny")],
    ["tiny-qwen35 (Qwen3.5 shape), Qwen3.5 XML", testModelSource("tiny-qwen35", { format: "qwen3.5" })],
    ["tiny (Qwen3 shape), Qwen3.5 XML", testModelSource("tiny", { format: "qwen3.5" })],
    ["tiny-qwen35 (Qwen3.5 shape), Hermes JSON", testModelSource("tiny-qwen35", { format: "qwen3" })],
  ];
  const toolSets = Math.max(1, Math.round(schemas / 2 / combos.length));
  const callsPerSet = Math.max(1, Math.round(calls / combos.length / toolSets));
  const offPerSet = Math.max(1, Math.round(unconstrained / combos.length / toolSets));
  const total = (figures: CallFigures[]) => figures.reduce((sum, f) => ({ ...sum, calls: sum.calls + f.calls, parsed: sum.parsed + f.parsed, knownName: sum.knownName + f.knownName, schemaValid: sum.schemaValid + f.schemaValid, closed: sum.closed + f.closed, unknownNames: sum.unknownNames + f.unknownNames, outputTokens: sum.outputTokens + f.outputTokens, failures: [...sum.failures, ...f.failures], unclosed: [] }));
  const on: CallFigures[] = [];
  const off: CallFigures[] = [];
  for (const [index, [label, model]] of combos.entries()) {
    const run = { engine, model, toolSets, seed: 100 + index, maxNewTokens: 96, toolsPerSet: 2 };
    const started = performance.now();
    on.push(await sampleCalls({ ...run, callsPerSet, constrain: true }));
    console.log(describeFigures(`${label}, constrained (${toolSets * 2} schemas)`, on.at(-1)!), `${((performance.now() - started) / 1000).toFixed(0)} s; ${closing()}`);
    off.push(await sampleCalls({ ...run, callsPerSet: offPerSet, constrain: false }));
    console.log(describeFigures(`${label}, unconstrained`, off.at(-1)!));
  }
  console.log(describeFigures(`ALL constrained (${toolSets * 2 * combos.length} schemas)`, total(on)));
  console.log(describeFigures("ALL unconstrained", total(off)));
  for (const failure of total(on).failures) console.log(`  failure: ${failure}`);
  // Budget-aware closing at a small budget: how often a call completes valid within 48 tokens.
  const small = await sampleCalls({ engine, model: combos[0]![1], toolSets: 10, callsPerSet: 2, seed: 900, maxNewTokens: 48, constrain: true, toolsPerSet: 2 });
  console.log(describeFigures("closing at maxNewTokens 48 (tiny, Hermes JSON)", small), `; ${closing()}`);
}

async function cost() {
  const shaped = await ensureTestModel(qwen3ShapedModel("q8"));
  const repo = shaped.manifest.id;
  const model = testModelSource(repo, { dtype: "q8", key: `${repo}/wasm-q8` });
  let last: ToolCallConstraint | undefined;
  const engine = new TransformersEngine({ localModelPath: `${dirname(shaped.folder)}/`, onToolCallConstraint: (constraint) => (last = constraint) });
  const tools = randomTools(4242, 2);
  const generate = async (request: Partial<GenerateRequest>, id: string) => {
    const events: RawEngineEvent[] = [];
    await engine.generate({ id, model, conversationId: id, messages: [{ role: "user", content: "Call a tool." }], tools, temperature: 1, maxNewTokens: 48, ...request }, (event) => events.push(event), new AbortController().signal);
    return (events.find((event) => event.type === "usage") as { usage: GenerationUsage } | undefined)!.usage;
  };
  await generate({ constrainToolCalls: false, maxNewTokens: 4 }, "warm");
  const ratios: number[] = [];
  const ttft: { on: number[]; off: number[] } = { on: [], off: [] };
  const mask: number[] = [];
  for (let round = 0; round < rounds; round++) {
    last = undefined;
    const constrained = await generate({ toolChoice: "required" }, `on-${round}`);
    // Set by the engine's callback during generate(), which TypeScript's narrowing cannot see.
    const masks = (last as ToolCallConstraint | undefined)?.maskMs ?? [];
    mask.push(...masks.slice(1)); // the first holds the grammar's compilation (cold) or the matcher's creation
    const free = await generate({ toolChoice: "required", constrainToolCalls: false }, `off-${round}`);
    ratios.push(constrained.decodeTokensPerSecond / free.decodeTokensPerSecond);
    console.log(`round ${round}: decode constrained ${constrained.decodeTokensPerSecond.toFixed(2)} tok/s (${constrained.outputTokens} tokens, first mask step ${masks[0]?.toFixed(1)} ms) vs unconstrained ${free.decodeTokensPerSecond.toFixed(2)} tok/s: ${ratios.at(-1)!.toFixed(3)}x`);
    // Outside calls (auto, a prompt without tools' pressure): time to first token with the constraint on and off.
    ttft.on.push((await generate({ toolChoice: "auto", maxNewTokens: 2 }, `ttft-on-${round}`)).timeToFirstTokenMs);
    ttft.off.push((await generate({ toolChoice: "auto", maxNewTokens: 2, constrainToolCalls: false }, `ttft-off-${round}`)).timeToFirstTokenMs);
  }
  console.log(`decode speed, constrained / unconstrained (paired rounds): median ${median(ratios).toFixed(3)}x, all ${ratios.map((r) => r.toFixed(3)).join(", ")}`);
  console.log(`mask per token inside a call (feed the matcher + bitmask + apply): median ${median(mask).toFixed(2)} ms, p95 ${percentile(mask, 0.95).toFixed(2)} ms, max ${Math.max(...mask).toFixed(2)} ms over ${mask.length} tokens`);
  console.log(`time to first token outside calls: on ${median(ttft.on)} ms, off ${median(ttft.off)} ms (medians of ${rounds})`);

}

/** The mask alone (no model: the tiny model's folder for its tokenizer, Qwen3's) and the one-time costs, each measured apart. */
async function maskCost() {
  const shaped = await ensureTestModel(tinyModel());
  const repo = shaped.manifest.id;
  env.allowLocalModels = true;
  env.allowRemoteModels = false;
  env.localModelPath = `${dirname(shaped.folder)}/`;
  const tokenizer = (await AutoTokenizer.from_pretrained(repo, { local_files_only: true })) as unknown as { _tokenizerJSON: never };
  const xgrammarStarted = performance.now();
  const xgrammar = await loadXGrammar();
  const xgrammarMs = performance.now() - xgrammarStarted;
  console.log(`xgrammar loaded in ${xgrammarMs.toFixed(0)} ms`);
  const vocabulary = readVocabulary(tokenizer._tokenizerJSON, { vocabSize: 151936, stopIds: [151645] });
  // Later loads in a browser read it from IndexedDB (vocabulary-cache.ts): each pays the fingerprint and the unpacking
  // of the stored entry, timed here; Node has no IndexedDB, so vocabulary-cache.browser.test.ts times the whole read in Chromium.
  let started = performance.now();
  const fingerprint = vocabularyFingerprint(tokenizer._tokenizerJSON, { vocabSize: 151936, stopIds: [151645] });
  const fingerprintMs = performance.now() - started;
  const entry = structuredClone(toStoredVocabulary(vocabulary, fingerprint));
  started = performance.now();
  if (!storedVocabularyIfValid(entry, { fingerprint, vocabSize: 151936 })) throw new Error("The stored vocabulary did not read back.");
  const unpackMs = performance.now() - started;
  const table = await buildTokenizerTable(xgrammar, vocabulary);
  const compileMs: number[] = [];
  for (const seed of [1, 2, 3]) {
    for (const syntax of ["qwen3", "qwen3.5"] as const) {
      const started = performance.now();
      const { ebnf } = await buildCallGrammar(modelFormat(syntax).grammar(randomTools(seed, 3)), xgrammar);
      (await table.compiler.compileGrammar(ebnf, "root")).dispose();
      compileMs.push(performance.now() - started);
    }
  }
  for (const syntax of ["qwen3", "qwen3.5"] as const) {
    const { prepareMs, applyMs } = await simulateCalls({ xgrammar, table, format: modelFormat(syntax), calls: 20, maxNewTokens: 96, seed: 7, verbose: true });
    console.log(
      `mask alone (${syntax}, 20 calls, tokens drawn uniformly from the mask): prepare median ${median(prepareMs).toFixed(2)} ms, p95 ${percentile(prepareMs, 0.95).toFixed(2)}, max ${Math.max(...prepareMs).toFixed(2)}; apply median ${median(applyMs).toFixed(2)} ms, p95 ${percentile(applyMs, 0.95).toFixed(2)}, max ${Math.max(...applyMs).toFixed(2)} (${prepareMs.length} tokens)`,
    );
  }
  for (const syntax of ["qwen3", "qwen3.5"] as const) {
    const { maskMs, compared, onlyXgrammar, onlyPlanner, illFormed } = await plannerAsMask({ xgrammar, table, format: modelFormat(syntax), calls: 3, steps: 4, seed: 5 });
    console.log(
      `the hand-written alternative (${syntax}): our Earley planner as a mask, every token tried on a fork, no per-state cache: median ${median(maskMs).toFixed(0)} ms a token, max ${Math.max(...maskMs).toFixed(0)} (${maskMs.length} tokens); over ${compared} points, tokens only xgrammar allowed: ${illFormed} ill-formed UTF-8 + ${onlyXgrammar} others; only the planner allowed (whole characters): ${onlyPlanner}`,
    );
  }
  console.log(`one-time: xgrammar load ${xgrammarMs.toFixed(0)} ms (already loaded above if 0), vocabulary ${vocabulary.buildMs.toFixed(0)} ms (cached: fingerprint ${fingerprintMs.toFixed(0)} ms + unpacking ${unpackMs.toFixed(0)} ms + the IndexedDB read), xgrammar tokenizer table ${table.buildMs.toFixed(0)} ms, a 3-tool call grammar built + compiled: median ${median(compileMs).toFixed(0)} ms (max ${Math.max(...compileMs).toFixed(0)})`);
}

if (only === undefined || only === "validity") await validity();
if (only === undefined || only === "cost") await cost();
if (only !== "validity") await maskCost();
