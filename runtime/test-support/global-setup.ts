/**
 * Vitest's global setup (vitest.config.ts): builds the project's small test
 * models once, before any test file starts, so files running in parallel do
 * not each build the same model inside a `beforeAll` (and its timeout). A
 * current build is kept (`ensureTestModel` checks its stamp), so on a warm
 * machine this takes well under a second. The larger shaped models stay with
 * the few tests that need them.
 */
import { exampleTestModels } from "../../models/test-models/example-scripted-models.js";
import { defaultTestModels, ensureTestModel, qwen35TestModels } from "../../models/test-models/index.js";
import { readQwen3TokenizerFiles } from "../../models/test-models/qwen3-tokenizer.js";

export default async function setup(): Promise<void> {
  const started = performance.now();
  const tokenizerFiles = readQwen3TokenizerFiles();
  let built = 0;
  for (const definition of [...defaultTestModels(), ...qwen35TestModels(), ...exampleTestModels()]) {
    if ((await ensureTestModel(definition, { tokenizerFiles })).built) built++;
  }
  if (built > 0) console.log(`[global setup] built ${built} test models in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}
