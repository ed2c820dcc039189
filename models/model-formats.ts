import type { ModelFormat, ModelFormatId } from "./model-format.js";
import { QWEN3_FORMAT } from "./qwen3-format.js";
import { QWEN35_FORMAT } from "./qwen35-format.js";

/** Every format by id. */
export const MODEL_FORMAT_MODULES: Readonly<Record<ModelFormatId, ModelFormat>> = { qwen3: QWEN3_FORMAT, "qwen3.5": QWEN35_FORMAT };

/** The format a model source names (Qwen3's when it names none: catalogs written before formats). */
export function modelFormat(id: ModelFormatId | undefined): ModelFormat {
  return MODEL_FORMAT_MODULES[id ?? "qwen3"] ?? QWEN3_FORMAT;
}
