import { qwen3ShapedModel } from "./qwen3-shaped-model.js";
import { scriptedModel } from "./scripted-model.js";
import type { TestModelDefinition, TestModelDtype } from "./test-model-definition.js";
import { tinyModel } from "./tiny-model.js";

/** The dtypes the 0.6B-shaped models come in. */
export const SHAPED_DTYPES: readonly TestModelDtype[] = ["fp32", "q8", "q4"];

/** The small models the test suite and `npm start` use (seconds to build, ~12 MB each with the tokenizer). */
export function defaultTestModels(): TestModelDefinition[] {
  return [tinyModel(), scriptedModel()];
}

/** Every model the CLI knows, with default options: `tiny`, `scripted`, `qwen3-0.6b-shaped-{fp32,q8,q4}`. */
export function allTestModels(): TestModelDefinition[] {
  return [...defaultTestModels(), ...SHAPED_DTYPES.map((dtype) => qwen3ShapedModel(dtype))];
}
