import { QWEN35_SHAPED_DTYPES, qwen35ShapedModel, tinyQwen35Model } from "./qwen35-shaped-model.js";
import { qwen35ScriptedModel } from "./qwen35-scripted-model.js";
import { qwen3ShapedModel } from "./qwen3-shaped-model.js";
import { scriptedModel } from "./scripted-model.js";
import type { TestModelDefinition, TestModelDtype } from "./test-model-definition.js";
import { tinyModel } from "./tiny-model.js";

/** The dtypes the 0.6B-shaped models come in. */
export const SHAPED_DTYPES: readonly TestModelDtype[] = ["fp32", "q8", "q4"];

/** The small models the test suite and `npm start` use (seconds to build): `tiny` ~12 MB with the whole tokenizer, `scripted` ~0.5 MB with its first 16,384 tokens. */
export function defaultTestModels(): TestModelDefinition[] {
  return [tinyModel(), scriptedModel()];
}

/** The small Qwen3.5 models (seconds to build): `tiny-qwen35` (qwen3_5_text, ~12 MB) and `scripted-qwen35` (Qwen3.5's format, ~0.5 MB). */
export function qwen35TestModels(): TestModelDefinition[] {
  return [tinyQwen35Model(), qwen35ScriptedModel()];
}

/**
 * Every model the CLI knows, with default options: `tiny`, `scripted`,
 * `tiny-qwen35`, `scripted-qwen35`, `qwen3-0.6b-shaped-{fp32,q8,q4}`,
 * `qwen35-0.8b-shaped-{fp32,q8}`.
 */
export function allTestModels(): TestModelDefinition[] {
  return [
    ...defaultTestModels(),
    ...qwen35TestModels(),
    ...SHAPED_DTYPES.map((dtype) => qwen3ShapedModel(dtype)),
    ...QWEN35_SHAPED_DTYPES.map((dtype) => qwen35ShapedModel(dtype)),
  ];
}
