// The models the examples' on-device adapters offer: the Qwen3 catalog, and
// with test models enabled (`WEB_AGENTS_TEST_MODELS=1 npm start`), the
// project's test models, each labelled as one.
import { QWEN3_CATALOG, type CatalogEntry, type CatalogVariant } from "@webmcp-agents/chat/runtime";
import { testModelEntries } from "@webmcp-agents/chat/testing";

/** The examples' scripted test models (models/test-models/example-scripted-models.ts builds them). */
export type ExampleScript = "store-scripted" | "store-scripted-qwen35" | "store-scripted-reviews" | "assistant-scripted";

const SCRIPTS: Record<ExampleScript, { label: string; brief: string }> = {
  "store-scripted": {
    label: "Test model: Field Store script",
    brief: "For tests only: opens the trail socks, adds them to the cart and places the order, whatever you ask.",
  },
  "store-scripted-qwen35": {
    label: "Test model: Field Store script (Qwen3.5 format)",
    brief: "For tests only: the same shopping flow, written in Qwen3.5's XML tool calls.",
  },
  "store-scripted-reviews": {
    label: "Test model: Field Store script that reads the reviews",
    brief: "For tests only: reads the trail socks' reviews before it adds them and places the order.",
  },
  "assistant-scripted": {
    label: "Test model: offline assistant script",
    brief: "For tests only: answers every message with the same greeting.",
  },
};

function scriptedEntry(id: ExampleScript, baseUrl: string): CatalogEntry {
  // Sizes are estimates (the download measures the real ones): Qwen3's first 16,384 tokens
  // (models/test-models/vocabulary-prefix.ts); the ONNX graph is a few kilobytes.
  const files = [
    { path: "config.json", bytes: 680 },
    { path: "generation_config.json", bytes: 178 },
    { path: "tokenizer.json", bytes: 463_233 },
    { path: "tokenizer_config.json", bytes: 9_675 },
    { path: "onnx/model.onnx", bytes: 9_000 },
  ];
  const bytes = files.reduce((total, file) => total + file.bytes, 0);
  const variants: CatalogVariant[] = (["webgpu", "wasm"] as const).map((device) => ({
    id: `${device}-fp32`,
    engine: "transformers",
    device,
    dtype: "fp32",
    repo: id,
    requiresShaderF16: false,
    files,
    bytes,
  }));
  return { id: `test-${id}`, ...SCRIPTS[id], parameters: 1, testModel: true, baseUrl, variants, ...(id.endsWith("-qwen35") && { format: "qwen3.5" as const }) };
}

const settings = __WEB_AGENTS_EXAMPLES__;

/** The catalog for an example page: Qwen3, plus the test models (the generic ones and `scripts`) when enabled. */
export function exampleModels(scripts: readonly ExampleScript[]): CatalogEntry[] {
  if (!settings.testModels) return [...QWEN3_CATALOG];
  const baseUrl = settings.testModelsBaseUrl;
  return [...QWEN3_CATALOG, ...testModelEntries({ baseUrl }), ...scripts.map((id) => scriptedEntry(id, baseUrl))];
}

/** Where the Qwen models come from: the model hub, or the local folder `npm start` serves. */
export const modelsBaseUrl = settings.modelsBaseUrl;

/**
 * A model chosen in the address (`?model=test-store-scripted`), honoured only
 * with test models enabled: the tests start on a scripted model this way.
 */
export function modelFromAddress(): string | undefined {
  if (!settings.testModels || typeof location === "undefined") return undefined;
  return new URLSearchParams(location.search).get("model") ?? undefined;
}
