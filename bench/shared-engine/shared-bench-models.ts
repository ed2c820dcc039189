import { join } from "node:path";
import { ensureTestModel, qwen3ShapedModel, readTestModelManifest, scriptedModel, tinyModel } from "../../models/test-models/index.js";
import type { HarnessStart } from "./local-page-harness.js";
import type { SharedBenchModel } from "./parse-shared-bench-arguments.js";

/** The shaped model's weights, which the page asks for under the fp32 name (see shaped-model-files-plugin.ts). */
export const SHAPED_WEIGHTS = { asked: "onnx/model.onnx", served: "onnx/model_quantized.onnx" } as const;

/** How the fixture page starts each model: `model` and, for the 0.6B-shaped one, the folder behind test-scripted's entry. */
export type ModelStarts = Record<SharedBenchModel, Omit<HarnessStart, "baseUrl" | "shared">>;

/**
 * Builds the models asked for (a current build is kept) and returns the
 * folder that holds them and how the page starts each. The fixture page's
 * catalog has only test-tiny and test-scripted, both fp32; the 0.6B-shaped
 * q8 model goes in as test-scripted's entry with its own folder and files,
 * its int8 graph under the fp32 file name (ONNX Runtime reads the graph, not
 * the name; the KV cache is float32 in both).
 */
export async function ensureSharedBenchModels(models: readonly SharedBenchModel[]): Promise<{ root: string; starts: Partial<ModelStarts> }> {
  const [scripted] = await Promise.all([ensureTestModel(scriptedModel()), ensureTestModel(tinyModel())]);
  const root = join(scripted.folder, "..");
  const starts: Partial<ModelStarts> = { "test-tiny": { model: "test-tiny" }, "test-scripted": { model: "test-scripted" } };
  if (models.includes("qwen3-0.6b-shaped-q8")) {
    const shaped = await ensureTestModel(qwen3ShapedModel("q8"));
    const manifest = readTestModelManifest(shaped.folder);
    if (!manifest) throw new Error(`No manifest in ${shaped.folder}.`);
    const files = manifest.files.map(({ path, bytes }) => ({ path: path === SHAPED_WEIGHTS.served ? SHAPED_WEIGHTS.asked : path, bytes }));
    starts["qwen3-0.6b-shaped-q8"] = { model: "test-scripted", scriptedBuild: { repo: manifest.id, files } };
  }
  return { root, starts };
}
