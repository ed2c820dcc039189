/**
 * The tool-call constraint's bench (issues 13, 24, 25), in Node on the CPU
 * with the real transformers.js and the generated test models. Each section
 * prints its figures against issue 25's targets:
 *
 * - compile: the one-time costs, and the milliseconds to build and compile
 *   each tool set's grammar (random sets, and sets with long strings and many
 *   bounds); target under 200 ms for any set;
 * - mask: the constraint alone over the real Qwen3 vocabulary, tokens drawn
 *   uniformly from the mask (the worst case for the bounds), validity by ajv;
 * - validity: `--calls` sampled calls at temperature 1 over `--schemas`
 *   random schemas (issue 25's additions included) on random-weight Qwen3-
 *   and Qwen3.5-shaped models, both formats, parsed as the worker reads them
 *   and checked by ajv, beside `--unconstrained` calls of the same tool sets;
 * - cost: the constraint's milliseconds per token inside calls, in the
 *   engine, at the default `maxNewTokens` (1024); target median ≤ 0.5 ms,
 *   p95 ≤ 2 ms; time to first token with the constraint on and off;
 * - jump: forward passes per call and a call's time with and without
 *   jump-forward, greedy, on the Qwen3- and Qwen3.5-shaped models;
 * - parsers: 160 KB in 4-character chunks through each output parser; target
 *   under 100 ms.
 *
 * `--only compile|mask|validity|cost|jump|parsers` runs one section.
 */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { ensureTestModel, qwen35ShapedModel, qwen3ShapedModel, tinyModel, tinyQwen35Model } from "../../models/test-models/index.js";
import { modelFormat } from "../../models/model-formats.js";
import type { GenerateRequest, GenerationUsage, ModelSource, RawEngineEvent } from "../../worker/protocol.js";
import { testModelSource } from "../../worker/test-fixtures/test-model-source.js";
import { loadXGrammar } from "../../worker/tool-call-constraint/load-xgrammar.js";
import { readVocabulary } from "../../worker/tool-call-constraint/vocabulary/tokenizer-vocabulary.js";
import { XGrammarTokenizer } from "../../worker/tool-call-constraint/vocabulary/xgrammar-tokenizer.js";
import { TransformersEngine } from "../../worker/transformers-engine.js";
import { compileTimes } from "./compile-times.js";
import { countConstraints, median, percentile } from "./constraint-counters.js";
import { layoutPasses } from "./layout-passes.js";
import { parserLinearity } from "./parser-linearity.js";
import { randomTools } from "./random-json-schema.js";
import { describeFigures, sampleCalls, type CallFigures } from "./sample-calls.js";
import { simulateCalls } from "./simulate-calls.js";

const argument = (name: string, fallback: number) => {
  const index = process.argv.indexOf(`--${name}`);
  return index === -1 ? fallback : Number(process.argv[index + 1]);
};
const only = process.argv.includes("--only") ? process.argv[process.argv.indexOf("--only") + 1] : undefined;
const runs = (section: string) => only === undefined || only === section;
const counters = countConstraints();
const ms = (value: number) => `${value.toFixed(2)} ms`;
const verdict = (ok: boolean) => (ok ? "met" : "MISSED");

async function compile() {
  const tiny = await ensureTestModel(tinyModel());
  let started = performance.now();
  const xgrammar = await loadXGrammar();
  const loadMs = performance.now() - started;
  const json = JSON.parse(readFileSync(join(tiny.folder, "tokenizer.json"), "utf8"));
  const vocabulary = readVocabulary(json, { vocabSize: 151936, stopIds: [151645] });
  started = performance.now();
  const table = await XGrammarTokenizer.create(xgrammar, vocabulary);
  console.log(`one-time: xgrammar loaded ${ms(loadMs)}; vocabulary read ${ms(vocabulary.buildMs)}; xgrammar's tokenizer table ${ms(table.buildMs)} (both built after the first token, in the background)`);
  for (const format of ["qwen3", "qwen3.5"] as const) {
    const { random, hard } = await compileTimes(table, modelFormat(format), 40, 3);
    const all = [...random, ...hard];
    console.log(
      `compile per tool set (${format}): random 3-tool sets median ${ms(median(random))}, max ${ms(Math.max(...random))}; long strings and many bounds ${hard.map(ms).join(", ")}; target < 200 ms for any: ${verdict(Math.max(...all) < 200)}`,
    );
  }
  return { table, vocabulary };
}

async function mask(shared?: Awaited<ReturnType<typeof compile>>) {
  const { table, vocabulary } = shared ?? (await compile());
  for (const format of ["qwen3", "qwen3.5"] as const) {
    counters.clear();
    const result = await simulateCalls({ table, vocabulary, format: modelFormat(format), toolSets: 30, callsPerSet: 2, maxNewTokens: 160, seed: 7 });
    console.log(
      `mask alone (${format}, ${result.calls} calls, tokens drawn uniformly from the mask): ${result.valid}/${result.calls} valid under ajv; prepare median ${ms(median(counters.prepareMs))}, p95 ${ms(percentile(counters.prepareMs, 0.95))}; apply median ${ms(median(counters.applyMs))}, p95 ${ms(percentile(counters.applyMs, 0.95))} over ${counters.prepareMs.length} tokens; planner lost ${counters.plannerLost}, bounds yielded ${counters.boundsYielded}, bounds lost ${counters.boundsLost}`,
    );
    for (const failure of result.failures) console.log(`  failure: ${failure}`);
  }
}

const total = (figures: CallFigures[]): CallFigures =>
  figures.reduce((sum, f) => ({ ...sum, calls: sum.calls + f.calls, parsed: sum.parsed + f.parsed, knownName: sum.knownName + f.knownName, schemaValid: sum.schemaValid + f.schemaValid, closed: sum.closed + f.closed, unknownNames: sum.unknownNames + f.unknownNames, outputTokens: sum.outputTokens + f.outputTokens, failures: [...sum.failures, ...f.failures], unclosed: [] }));

const COMBOS: [string, ModelSource][] = [
  ["tiny (Qwen3 shape), Hermes JSON", testModelSource("tiny")],
  ["tiny-qwen35 (Qwen3.5 shape), Qwen3.5 XML", testModelSource("tiny-qwen35", { format: "qwen3.5" })],
  ["tiny (Qwen3 shape), Qwen3.5 XML", testModelSource("tiny", { format: "qwen3.5" })],
  ["tiny-qwen35 (Qwen3.5 shape), Hermes JSON", testModelSource("tiny-qwen35", { format: "qwen3" })],
];

async function validity() {
  const [tiny] = await Promise.all([ensureTestModel(tinyModel()), ensureTestModel(tinyQwen35Model())]);
  const engine = new TransformersEngine({ localModelPath: `${dirname(tiny.folder)}/` });
  const calls = argument("calls", 1000);
  const schemas = argument("schemas", 200);
  const unconstrained = argument("unconstrained", 200);
  const toolSets = Math.max(1, Math.round(schemas / 2 / COMBOS.length));
  const callsPerSet = Math.max(1, Math.round(calls / COMBOS.length / toolSets));
  const offPerSet = Math.max(1, Math.round(unconstrained / COMBOS.length / toolSets));
  const on: CallFigures[] = [];
  const off: CallFigures[] = [];
  for (const [index, [label, model]] of COMBOS.entries()) {
    counters.clear();
    const run = { engine, model, toolSets, seed: 100 + index, maxNewTokens: 96, toolsPerSet: 2 };
    on.push(await sampleCalls({ ...run, callsPerSet, constrain: true }));
    const narrowed = counters.calls.reduce((sum, call) => sum + call.narrowedSteps, 0);
    console.log(describeFigures(`${label}, constrained (${toolSets * 2} schemas)`, on.at(-1)!), `; budget narrowed ${narrowed} steps, ${counters.calls.filter((call) => call.planned).length} calls finished from the plan; planner lost ${counters.plannerLost}, xgrammar refused ${counters.rejected}, bounds yielded ${counters.boundsYielded}, bounds lost ${counters.boundsLost}`);
    off.push(await sampleCalls({ ...run, callsPerSet: offPerSet, constrain: false }));
    console.log(describeFigures(`${label}, unconstrained`, off.at(-1)!));
  }
  console.log(describeFigures(`ALL constrained (${toolSets * 2 * COMBOS.length} schemas)`, total(on)));
  console.log(describeFigures("ALL unconstrained", total(off)));
  for (const failure of total(on).failures) console.log(`  failure: ${failure}`);
}

async function cost() {
  const [tiny] = await Promise.all([ensureTestModel(tinyModel()), ensureTestModel(tinyQwen35Model())]);
  const engine = new TransformersEngine({ localModelPath: `${dirname(tiny.folder)}/` });
  for (const [label, model] of COMBOS.slice(0, 2)) {
    counters.clear();
    // The default budget (1024): calls are rarely near it, as in use.
    await sampleCalls({ engine, model, toolSets: 10, callsPerSet: 4, seed: 300, maxNewTokens: 1024, constrain: true, toolsPerSet: 2 });
    const steps = counters.prepareMs.map((prepare, index) => prepare + counters.applyMs[index]!);
    console.log(
      `the constraint per token inside a call, in the engine (${label}, maxNewTokens 1024, ${steps.length} tokens over ${counters.calls.length} calls): median ${ms(median(steps))} (target ≤ 0.5: ${verdict(median(steps) <= 0.5)}), p95 ${ms(percentile(steps, 0.95))} (target ≤ 2: ${verdict(percentile(steps, 0.95) <= 2)}), p99 ${ms(percentile(steps, 0.99))}, max ${ms(Math.max(...steps))} (the first call, waiting for the one-time build); prepare median ${ms(median(counters.prepareMs))}, apply median ${ms(median(counters.applyMs))}`,
    );
  }
  // Time to first token outside calls, on a fresh engine each (the constraint's tables are built after the first token).
  const ttft: { on: number[]; off: number[] } = { on: [], off: [] };
  for (let round = 0; round < 3; round++) {
    for (const constrain of [true, false]) {
      const fresh = new TransformersEngine({ localModelPath: `${dirname(tiny.folder)}/` });
      const events: RawEngineEvent[] = [];
      await fresh.generate({ id: "t", model: COMBOS[0]![1], conversationId: "t", messages: [{ role: "user", content: "Hi" }], tools: randomTools(1, 2), maxNewTokens: 2, temperature: 1, constrainToolCalls: constrain }, (event) => events.push(event), new AbortController().signal);
      const usage = events.find((event) => event.type === "usage") as { usage: GenerationUsage };
      (constrain ? ttft.on : ttft.off).push(usage.usage.timeToFirstTokenMs);
    }
  }
  console.log(`time to first token, a fresh engine's first generation with tools (tiny): constraint on ${median(ttft.on)} ms, off ${median(ttft.off)} ms (medians of 3)`);
}

async function jump() {
  const models: [string, ModelSource, string][] = [];
  const tiny = await ensureTestModel(tinyModel());
  await ensureTestModel(tinyQwen35Model());
  models.push(["tiny (Qwen3 shape)", testModelSource("tiny"), dirname(tiny.folder)], ["tiny-qwen35 (Qwen3.5 shape)", testModelSource("tiny-qwen35", { format: "qwen3.5" }), dirname(tiny.folder)]);
  if (!process.argv.includes("--no-shaped")) {
    const qwen3 = await ensureTestModel(qwen3ShapedModel("q8"));
    const qwen35 = await ensureTestModel(qwen35ShapedModel("q8"));
    models.push(
      ["qwen3-0.6b-shaped q8", testModelSource(qwen3.manifest.id, { dtype: "q8" }), dirname(qwen3.folder)],
      ["qwen3.5-0.8b-shaped q8", testModelSource(qwen35.manifest.id, { dtype: "q8", format: "qwen3.5" }), dirname(qwen35.folder)],
    );
  }
  for (const [label, model, folder] of models) {
    const figures: Record<string, { passes: number[]; tokens: number[]; ms: number[] }> = {};
    for (const jumpForward of [true, false]) {
      const engine = new TransformersEngine({ localModelPath: `${folder}/`, jumpForward });
      const key = jumpForward ? "with" : "without";
      figures[key] = { passes: [], tokens: [], ms: [] };
      for (let set = 0; set < 6; set++) {
        counters.clear();
        const tools = randomTools(500 + set, 2);
        const started = performance.now();
        await engine.generate({ id: `j${set}`, model, conversationId: `j${set}-${key}`, messages: [{ role: "user", content: "Call a tool." }], tools, temperature: 0, maxNewTokens: 96, toolChoice: "required" } as GenerateRequest, () => {}, new AbortController().signal);
        const call = counters.calls[0];
        if (!call) continue;
        figures[key]!.passes.push(call.forwardPasses);
        figures[key]!.tokens.push(call.tokens);
        figures[key]!.ms.push(performance.now() - started);
      }
    }
    const line = (key: string) => `${key} jump-forward: ${median(figures[key]!.passes)} passes for ${median(figures[key]!.tokens)} tokens a call, ${ms(median(figures[key]!.ms))} a generation (medians of ${figures[key]!.ms.length})`;
    console.log(`${label} (random weights, greedy, 96 tokens): ${line("with")}; ${line("without")}`);
  }
  for (const row of await layoutPasses(counters)) {
    console.log(
      `the ${row.format} layouts as scripted models write them (${row.calls} calls): ${row.passes} forward passes for ${row.tokens} tokens with jump-forward (${((100 * (1 - row.passes / row.tokens)) | 0)}% fewer; without, one a token); the constraint per step on these calls (written right): median ${ms(row.medianStepMs)}, p95 ${ms(row.p95StepMs)}`,
    );
  }
}

function parsers() {
  const rows = parserLinearity();
  const worst = Math.max(...rows.map((row) => row.ms));
  console.log(`output parsers, 160 KB in 4-character chunks: ${rows.map((row) => `${row.parser} ${row.shape} ${ms(row.ms)}`).join("; ")}; target < 100 ms: ${verdict(worst < 100)}`);
}

const shared = runs("compile") ? await compile() : undefined;
if (runs("mask")) await mask(shared);
if (runs("parsers")) parsers();
if (runs("cost")) await cost();
if (runs("jump")) await jump();
if (runs("validity")) await validity();
counters.detach();
