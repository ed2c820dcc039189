import { beforeAll, describe, expect, it } from "vitest";
import { admittedCalls } from "../../bench/constraint/admitted-calls.js";
import { loadXGrammar, type XGrammar } from "./load-xgrammar.js";

/**
 * Completeness, beside sampled-calls.test.ts's soundness: every valid
 * instance of random loose schemas (unlisted keys, `additionalProperties`
 * schemas, `patternProperties`, typeless schemas, boundary numbers, long,
 * escaped and non-ASCII strings, nesting), written in every layout the
 * format's parser reads, passes the whole constraint token by token and is
 * read back byte for byte. Seeded: a failure reproduces.
 */
describe("admitted calls: the constraint refuses no valid instance", () => {
  let xgrammar: XGrammar;
  beforeAll(async () => {
    xgrammar = await loadXGrammar();
  });

  it.each(["qwen3", "qwen3.5"] as const)("%s: every layout the parser reads as the instance is admitted unchanged", async (format) => {
    const run = await admittedCalls({ xgrammar, format, toolSets: 40, instancesPerTool: 20, seed: format === "qwen3" ? 35 : 36 });
    console.log(`${format}: ${run.instances} instances, ${run.calls} calls, ${run.admitted} admitted, ${run.refused} refused; not readable back by the parser: ${JSON.stringify(run.unwritable)}; known refusals, not run: ${JSON.stringify(run.known)}`);
    expect(run.failures).toEqual([]);
    expect(run.instances).toBeGreaterThan(1000);
  }, 300_000);
});
