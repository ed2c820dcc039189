/**
 * The on-device models: Qwen3 0.6B, 1.7B and 4B, each with the variants that
 * serve it on WebGPU (transformers.js or web-llm) and, for 0.6B, on the CPU;
 * Qwen3.5 0.8B, 2B and 4B are in `qwen35-catalog.ts`, and `QWEN_CATALOG`
 * offers both families. Qwen3 entries name no `format` (the default,
 * `"qwen3"`). Plain data: `catalog-schema.ts` holds the types and the zod
 * schema a test checks this against.
 *
 * The transformers.js files come from `qwen3-hub-files.json`: each repo
 * pinned to one commit, every file's exact size and, where a public record
 * gives it, its sha256, as public projects that pin these files record them
 * (`catalog.hub.test.ts` checks every variant against it, file by file;
 * `npm run catalog:check` against the hub's own tree API). Which variants
 * exist follows what the repositories hold at those commits:
 * - 0.6B: q4f16, q4 and q8 (`quantized`) are each one self-contained graph
 *   (no `_data`), every file pinned by sha256.
 * - 1.7B: q4f16 is one 1.43 GB graph. No plain q4: the repo's q4 is one
 *   2,147,212,861-byte graph, past protobuf's 2 GB and past what a browser
 *   hands ONNX Runtime as one buffer (it listed a `_data` file the repo does
 *   not have, a 404 after 2.1 GB). No `quantized` size was found, so no CPU
 *   variant. A GPU without `shader-f16` runs web-llm's q4f32_1.
 * - 4B: q4f16 only, a 59.8 MB graph with two data chunks (2.10 GB + 677 MB;
 *   the second was missing before, so the download could not load). No plain
 *   q4 build was seen: without `shader-f16`, web-llm's q4f32_1. Its hashes
 *   are recorded only against `main`, not this commit, so none is pinned;
 *   `config.json` and `tokenizer_config.json` sizes conflict between records
 *   and are estimates (the larger figure).
 * `chat_template.jinja` is listed where the repo has it: the engine reads
 * it when `tokenizer_config.json` carries no template.
 *
 * web-llm variants list no files (web-llm fetches its own); their sizes are
 * estimates from the parameters at 4.5 (`q4f16_1`) / 5 (`q4f32_1`) bits per
 * weight, the embedding stored once (tied), plus the tokenizer.
 */
import type { CatalogEntry } from "./catalog-schema.js";
import { hubVariantFiles } from "./hub-files.js";
import QWEN3_HUB_FILES from "./qwen3-hub-files.json";
import { QWEN35_CATALOG } from "./qwen35-catalog.js";

export { QWEN35_CATALOG };

// Here for the catalog's readers; declared apart so that choosing a variant (resolve-variant.ts)
// does not load the catalog.
export { CPU_FALLBACK_NOTE, CPU_SLOWER_NOTE, DEFAULT_MODEL_BASE_URL } from "./variant-notes.js";
import { CPU_SLOWER_NOTE } from "./variant-notes.js";

/** Files every Qwen3 transformers.js variant needs besides its weights. */
const TEXT_FILES = ["config.json", "generation_config.json", "tokenizer.json", "tokenizer_config.json"] as const;

/** The pinned files of a Qwen3 repo: the text files (and its `chat_template.jinja`, where it has one), then the weights. */
const qwen3Files = (repo: string, weights: readonly string[], chatTemplateFile = true) =>
  hubVariantFiles(QWEN3_HUB_FILES, repo, [...TEXT_FILES, ...(chatTemplateFile ? ["chat_template.jinja"] : []), ...weights]);

export const QWEN3_CATALOG: readonly CatalogEntry[] = [
  {
    id: "qwen3-0.6b",
    label: "Qwen3 0.6B",
    brief: "The quickest to download and to answer: simple tasks on most devices.",
    parameters: 595_984_384,
    recommended: true,
    variants: [
      {
        id: "webgpu-q4f16",
        engine: "transformers",
        device: "webgpu",
        dtype: "q4f16",
        requiresShaderF16: true,
        .../* @__PURE__ */ qwen3Files("onnx-community/Qwen3-0.6B-ONNX", ["onnx/model_q4f16.onnx"]),
      },
      {
        id: "webgpu-q4",
        engine: "transformers",
        device: "webgpu",
        dtype: "q4",
        requiresShaderF16: false,
        .../* @__PURE__ */ qwen3Files("onnx-community/Qwen3-0.6B-ONNX", ["onnx/model_q4.onnx"]),
      },
      {
        id: "webgpu-mlc-q4f16_1",
        engine: "web-llm",
        device: "webgpu",
        dtype: "q4f16_1",
        repo: "Qwen3-0.6B-q4f16_1-MLC",
        requiresShaderF16: true,
        files: [],
        bytes: 346_000_000,
      },
      {
        id: "webgpu-mlc-q4f32_1",
        engine: "web-llm",
        device: "webgpu",
        dtype: "q4f32_1",
        repo: "Qwen3-0.6B-q4f32_1-MLC",
        requiresShaderF16: false,
        files: [],
        bytes: 383_000_000,
      },
      {
        // q8, not q4: 4-bit MatMulNBits runs ~9x slower than q8 on WASM.
        id: "wasm-q8",
        engine: "transformers",
        device: "wasm",
        dtype: "q8",
        requiresShaderF16: false,
        .../* @__PURE__ */ qwen3Files("onnx-community/Qwen3-0.6B-ONNX", ["onnx/model_quantized.onnx"]),
        label: "Qwen3 0.6B (CPU)",
        brief: "Runs on the processor, no graphics chip needed: private, but replies come slowly.",
      },
    ],
  },
  {
    id: "qwen3-1.7b",
    label: "Qwen3 1.7B",
    brief: "Follows multi-step requests more reliably; needs a recent GPU and a bigger download.",
    parameters: 1_720_451_072,
    variants: [
      {
        id: "webgpu-q4f16",
        engine: "transformers",
        device: "webgpu",
        dtype: "q4f16",
        requiresShaderF16: true,
        .../* @__PURE__ */ qwen3Files("onnx-community/Qwen3-1.7B-ONNX", ["onnx/model_q4f16.onnx"]),
      },
      {
        id: "webgpu-mlc-q4f16_1",
        engine: "web-llm",
        device: "webgpu",
        dtype: "q4f16_1",
        repo: "Qwen3-1.7B-q4f16_1-MLC",
        requiresShaderF16: true,
        files: [],
        bytes: 979_000_000,
      },
      {
        id: "webgpu-mlc-q4f32_1",
        engine: "web-llm",
        device: "webgpu",
        dtype: "q4f32_1",
        repo: "Qwen3-1.7B-q4f32_1-MLC",
        requiresShaderF16: false,
        files: [],
        bytes: 1_086_000_000,
      },
    ],
  },
  {
    id: "qwen3-4b",
    label: "Qwen3 4B",
    brief: "The most capable here, for a fast GPU with memory to spare; a large download.",
    parameters: 4_022_272_000,
    variants: [
      {
        id: "webgpu-q4f16",
        engine: "transformers",
        device: "webgpu",
        dtype: "q4f16",
        requiresShaderF16: true,
        // No chat_template.jinja: no record shows this repo has one at this commit.
        .../* @__PURE__ */ qwen3Files("onnx-community/Qwen3-4B-ONNX", ["onnx/model_q4f16.onnx", "onnx/model_q4f16.onnx_data", "onnx/model_q4f16.onnx_data_1"], false),
      },
      {
        id: "webgpu-mlc-q4f16_1",
        engine: "web-llm",
        device: "webgpu",
        dtype: "q4f16_1",
        repo: "Qwen3-4B-q4f16_1-MLC",
        requiresShaderF16: true,
        files: [],
        bytes: 2_274_000_000,
      },
      {
        id: "webgpu-mlc-q4f32_1",
        engine: "web-llm",
        device: "webgpu",
        dtype: "q4f32_1",
        repo: "Qwen3-4B-q4f32_1-MLC",
        requiresShaderF16: false,
        files: [],
        bytes: 2_525_000_000,
      },
    ],
  },
];

/**
 * Qwen3.5 (0.8B, 2B, 4B, WebGPU only) then Qwen3 (0.6B, 1.7B, 4B). Both
 * smallest models are recommended, Qwen3.5 0.8B first: a device's default is
 * the first recommended entry that runs on it, so Qwen3.5 0.8B wherever
 * WebGPU runs (q4f16 with `shader-f16`, q4 without), and Qwen3 0.6B (q8)
 * on the CPU, where no Qwen3.5 variant runs.
 */
export const QWEN_CATALOG: readonly CatalogEntry[] = /* @__PURE__ */ concatCatalogs(QWEN35_CATALOG, QWEN3_CATALOG);

// A call the bundler is told is pure: a page that never names QWEN_CATALOG (the default
// createLocalAdapter()) then ships neither it nor the Qwen3.5 entries and their hub data.
function concatCatalogs(...catalogs: (readonly CatalogEntry[])[]): readonly CatalogEntry[] {
  return catalogs.flat();
}
