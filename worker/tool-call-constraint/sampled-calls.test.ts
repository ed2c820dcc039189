import { dirname } from "node:path";
import { random } from "@huggingface/transformers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { countConstraints } from "../../bench/constraint/constraint-counters.js";
import { describeFigures, sampleCalls } from "../../bench/constraint/sample-calls.js";
import { ensureTestModel, tinyModel, tinyQwen35Model } from "../../models/test-models/index.js";
import { testModelSource } from "../test-fixtures/test-model-source.js";
import { TransformersEngine } from "../transformers-engine.js";

/**
 * Validity on random-weight models sampled at temperature 1, in `required`
 * mode over seeded random schemas with issue 25's additions (strings up to
 * `maxLength` 300, fractional, one-sided and exclusive bounds, `<` in
 * strings): the CI-sized run (per model and format, 12 calls over 4 tool
 * sets of 3 random schemas: 48 calls over 48 schemas in all, with 3
 * unconstrained calls each for the report), checked by ajv (JSON Schema
 * 2020-12), not the runtime's own validator; `npm run bench:constraint` runs
 * 1,000 over 200. At the bench's 96-token budget many calls run into the
 * limit, and budget-aware closing must close every one of them valid.
 * Sampling is seeded, so a failure here reproduces.
 */
describe("sampled tool calls under the constraint (random-weight models, temperature 1)", () => {
  let engine: TransformersEngine;
  const counters = countConstraints();
  afterAll(counters.detach);

  beforeAll(async () => {
    const [tiny] = await Promise.all([ensureTestModel(tinyModel()), ensureTestModel(tinyQwen35Model())]);
    engine = new TransformersEngine({ localModelPath: `${dirname(tiny.folder)}/` });
  }, 180_000);

  const cases = [
    { label: "tiny (Qwen3 shape), Hermes JSON", model: testModelSource("tiny") },
    { label: "tiny-qwen35 (Qwen3.5 shape), Qwen3.5 XML", model: testModelSource("tiny-qwen35", { format: "qwen3.5" }) },
    { label: "tiny (Qwen3 shape), Qwen3.5 XML", model: testModelSource("tiny", { format: "qwen3.5" }) },
    { label: "tiny-qwen35 (Qwen3.5 shape), Hermes JSON", model: testModelSource("tiny-qwen35", { format: "qwen3" }) },
  ];

  it.each(cases)("$label: 100% parse, 100% valid under ajv, no unknown names", async ({ label, model }) => {
    const run = { engine, model, seed: 13, maxNewTokens: 96 };
    // transformers.js samples with its own seedable generator: seeded, every run draws the same calls (the bench draws 1,000 unseeded).
    random.seed(run.seed);
    counters.clear();
    const on = await sampleCalls({ ...run, toolSets: 4, callsPerSet: 3, constrain: true });
    // The planner and xgrammar never disagree, xgrammar never sees a token it masked, the bounds never left nothing nor lost their place.
    expect({ plannerLost: counters.plannerLost, rejected: counters.rejected, boundsYielded: counters.boundsYielded, boundsLost: counters.boundsLost }).toEqual({ plannerLost: 0, rejected: 0, boundsYielded: 0, boundsLost: 0 });
    const planned = counters.calls.filter((call) => call.planned).length;
    const narrowed = counters.calls.reduce((sum, call) => sum + call.narrowedSteps, 0);
    console.log(`${label}: ${narrowed} steps narrowed by the budget; ${planned} of 12 calls finished by writing their shortest completion`);
    const off = await sampleCalls({ ...run, toolSets: 1, callsPerSet: 3, constrain: false });
    console.log(describeFigures(`${label}, constrained`, on));
    console.log(describeFigures(`${label}, unconstrained`, off));
    expect(on.failures).toEqual([]);
    expect(on).toMatchObject({ calls: 12, parsed: 12, schemaValid: 12, unknownNames: 0, closed: 12 });
  }, 300_000);
});
