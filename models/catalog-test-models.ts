import type { CatalogEntry, CatalogFile, CatalogVariant } from "./catalog-schema.js";
import { DTYPE_FILE_NAMES } from "./dtype-file-names.js";

/** Options for {@link testModelEntries}. */
export interface TestModelEntriesOptions {
  /**
   * Where the site serves the built test models (`.cache/models/`), so that
   * `${baseUrl}/<id>/resolve/main/<file>` is `.cache/models/<id>/<file>`.
   */
  baseUrl: string;
}

/**
 * Sizes of a built test model's files: the tokenizer is Qwen3's whole one
 * for `tiny` and its first 16,384 tokens for `scripted`
 * (models/test-models/vocabulary-prefix.ts); the ONNX graph differs per model.
 */
function testModelFiles(tokenizerBytes: number, onnxBytes: number): CatalogFile[] {
  return [
    { path: "config.json", bytes: 682 },
    { path: "generation_config.json", bytes: 178 },
    { path: "tokenizer.json", bytes: tokenizerBytes },
    { path: "tokenizer_config.json", bytes: 9_675 },
    { path: `onnx/${DTYPE_FILE_NAMES.fp32}`, bytes: onnxBytes },
  ];
}

function fp32Variants(repo: string, tokenizerBytes: number, onnxBytes: number): CatalogVariant[] {
  const files = testModelFiles(tokenizerBytes, onnxBytes);
  const bytes = files.reduce((total, file) => total + file.bytes, 0);
  return (["webgpu", "wasm"] as const).map((device) => ({
    id: `${device}-fp32`,
    engine: "transformers",
    device,
    dtype: "fp32",
    repo,
    requiresShaderF16: false,
    files,
    bytes,
  }));
}

/**
 * Catalog entries for the project's own test models (`models/test-models/`):
 * `test-tiny` (random weights: per-token overhead, Stop) and `test-scripted`
 * (a tool call, then an answer). Add them only when explicitly enabled
 * (`createLocalAdapter({ catalog: { models: testModelEntries({ baseUrl }) } })`, from `@webmcp-agents/chat/testing`): they answer nonsense
 * or a fixed script, and say so in their labels.
 */
export function testModelEntries(options: TestModelEntriesOptions): CatalogEntry[] {
  return [
    {
      id: "test-tiny",
      label: "Test model: tiny (random weights)",
      brief: "For tests only: answers nonsense, fast, to measure the runtime and try Stop.",
      parameters: 5_000_000,
      testModel: true,
      baseUrl: options.baseUrl,
      variants: fp32Variants("tiny", 11_422_654, 113_504),
    },
    {
      id: "test-scripted",
      label: "Test model: scripted tool call",
      brief: "For tests only: calls add_to_cart, then answers after the result.",
      parameters: 1,
      testModel: true,
      baseUrl: options.baseUrl,
      variants: fp32Variants("scripted", 463_233, 8_274),
    },
  ];
}
