// The models the evals page offers, as catalog entries read from the built
// test models' manifests (.cache/models/<id>/manifest.json): exact sizes and
// sha256 pins, so the report's download sizes are the real ones. Node only.
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { CatalogEntry, CatalogVariant } from "@webmcp-agents/chat/runtime";
import { readTestModelManifest, type TestModelManifest } from "../../models/test-models/test-model-manifest.js";

/** One model the page may offer, by its folder under the models root. */
interface EvalModelInfo {
  folder: string;
  label: string;
  brief: string;
  parameters: number;
  /** Checked in the page before a run: the small ones, seconds each. */
  checked: boolean;
}

/** In the order the page lists them: the scripted ones, then random weights from small to large. */
export const EVAL_MODELS: readonly EvalModelInfo[] = [
  { folder: "store-scripted", label: "Test model: Field Store script (right path)", brief: "Scripted: opens the trail socks, adds one, opens the cart, places the order.", parameters: 1, checked: true },
  { folder: "eval-store-wrong-tool", label: "Test model: script with a wrong tool", brief: "Scripted: reads the cart where it should add to it.", parameters: 1, checked: true },
  { folder: "eval-store-wrong-input", label: "Test model: script with a wrong input", brief: "Scripted: adds two pairs when one was asked for.", parameters: 1, checked: true },
  { folder: "tiny", label: "Test model: tiny Qwen3 (random weights)", brief: "Random weights, Qwen3's format: answers nonsense.", parameters: 5_000_000, checked: true },
  { folder: "tiny-qwen35", label: "Test model: tiny Qwen3.5 (random weights)", brief: "Random weights, Qwen3.5's format: answers nonsense.", parameters: 5_000_000, checked: true },
  { folder: "qwen3-0.6b-shaped-q8", label: "Test model: Qwen3-0.6B-shaped q8 (random weights)", brief: "Qwen3-0.6B's shapes and size, random weights: real speed, nonsense answers.", parameters: 600_000_000, checked: false },
  { folder: "qwen35-0.8b-shaped-q8", label: "Test model: Qwen3.5-0.8B-shaped q8 (random weights)", brief: "Qwen3.5-0.8B's shapes and size, random weights: real speed, nonsense answers.", parameters: 800_000_000, checked: false },
];

/** What the page reads from `/evals/models.json`. */
export interface EvalModelsFile {
  entries: CatalogEntry[];
  /** Entry ids checked at first. */
  checked: string[];
  /** Where the entries' files are served (`createLocalAdapter({ worker: { baseUrl } })`). */
  baseUrl: string;
}

function entryOf(info: EvalModelInfo, manifest: TestModelManifest, baseUrl: string): CatalogEntry {
  const files = manifest.files.map(({ path, bytes, sha256 }) => ({ path, bytes, sha256 }));
  const variants: CatalogVariant[] = (["wasm", "webgpu"] as const).map((device) => ({
    id: `${device}-${manifest.dtype}`,
    engine: "transformers",
    device,
    dtype: manifest.dtype,
    repo: manifest.id,
    requiresShaderF16: false,
    files,
    bytes: manifest.totalBytes,
  }));
  return {
    id: `test-${info.folder}`,
    label: info.label,
    brief: info.brief,
    parameters: info.parameters,
    testModel: true,
    baseUrl,
    variants,
    ...(manifest.modelType !== "qwen3" && { format: "qwen3.5" as const }),
  };
}

/** The entries for every model of {@link EVAL_MODELS} built under `root`. */
export function evalModelEntries(root: string, baseUrl: string): EvalModelsFile {
  const entries: CatalogEntry[] = [];
  const checked: string[] = [];
  for (const info of EVAL_MODELS) {
    if (!existsSync(join(root, info.folder))) continue;
    const manifest = readTestModelManifest(join(root, info.folder));
    if (!manifest) continue;
    const entry = entryOf(info, manifest, baseUrl);
    entries.push(entry);
    if (info.checked) checked.push(entry.id);
  }
  return { entries, checked, baseUrl };
}
