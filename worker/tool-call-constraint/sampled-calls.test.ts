import { dirname } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { describeFigures, sampleCalls } from "../../bench/constraint/sample-calls.js";
import { ensureTestModel, tinyModel, tinyQwen35Model } from "../../models/test-models/index.js";
import { testModelSource } from "../test-fixtures/test-model-source.js";
import { TransformersEngine } from "../transformers-engine.js";
import type { ToolCallConstraint } from "./tool-call-constraint.js";

/**
 * Validity on random-weight models sampled at temperature 1, in `required`
 * mode over seeded random schemas: the CI-sized run (per model and format, 12
 * calls over 4 tool sets of 3 random schemas: 48 calls over 48 schemas in all,
 * with 3 unconstrained calls each for the report); `npm run bench:constraint`
 * runs 1,000 over 200. The budget is the bench's (96 tokens): many calls
 * run into it, and budget-aware closing (the completion planner) must close
 * every one of them valid.
 */
describe("sampled tool calls under the constraint (random-weight models, temperature 1)", () => {
  let engine: TransformersEngine;
  const constraints: ToolCallConstraint[] = [];

  beforeAll(async () => {
    const [tiny] = await Promise.all([ensureTestModel(tinyModel()), ensureTestModel(tinyQwen35Model())]);
    engine = new TransformersEngine({ localModelPath: `${dirname(tiny.folder)}/`, onToolCallConstraint: (constraint) => constraints.push(constraint) });
  }, 180_000);

  const cases = [
    { label: "tiny (Qwen3 shape), Hermes JSON", model: testModelSource("tiny") },
    { label: "tiny-qwen35 (Qwen3.5 shape), Qwen3.5 XML", model: testModelSource("tiny-qwen35", { format: "qwen3.5" }) },
    { label: "tiny (Qwen3 shape), Qwen3.5 XML", model: testModelSource("tiny", { format: "qwen3.5" }) },
    { label: "tiny-qwen35 (Qwen3.5 shape), Hermes JSON", model: testModelSource("tiny-qwen35", { format: "qwen3" }) },
  ];

  it.each(cases)("$label: 100% parse, 100% schema-valid, no unknown names", async ({ label, model }) => {
    const run = { engine, model, seed: 13, maxNewTokens: 96 };
    constraints.length = 0;
    const on = await sampleCalls({ ...run, toolSets: 4, callsPerSet: 3, constrain: true });
    const planned = constraints.reduce((sum, constraint) => sum + constraint.plannedCalls, 0);
    // The planner and xgrammar never disagree, and xgrammar never sees a token it masked.
    expect(constraints.map((constraint) => [constraint.plannerLost, constraint.rejected.length])).toEqual(constraints.map(() => [0, 0]));
    const closing = constraints.reduce((sum, constraint) => sum + constraint.closingSteps, 0);
    console.log(`${label}: ${closing} steps narrowed by the budget; ${planned} of 12 calls finished by writing their shortest completion`);
    const off = await sampleCalls({ ...run, toolSets: 1, callsPerSet: 3, constrain: false });
    console.log(describeFigures(`${label}, constrained`, on));
    console.log(describeFigures(`${label}, unconstrained`, off));
    expect(on.failures).toEqual([]);
    expect(on).toMatchObject({ calls: 12, parsed: 12, schemaValid: 12, unknownNames: 0, closed: 12 });
  }, 300_000);
});
