/**
 * The on-device models: Qwen3 0.6B, 1.7B and 4B, each with the variants that
 * serve it on WebGPU (transformers.js or web-llm) and, for 0.6B, on the CPU;
 * Qwen3.5 0.8B, 2B and 4B are in `qwen35-catalog.ts`, and `QWEN_CATALOG`
 * offers both families. Qwen3 entries name no `format` (the default,
 * `"qwen3"`). Plain data: `catalog-schema.ts` holds the types and the zod
 * schema a test checks this against.
 *
 * Sizes are estimates (parameters x bits per weight), marked approximate:
 * - transformers.js `q4f16`: 4-bit weights with an fp16 scale per 32 (4.5
 *   bits) for every MatMul, the untied LM head included, fp16 embedding;
 * - `q4`: 4-bit weights with fp32 scales (5 bits), fp32 embedding (FACTS.md
 *   measured 1.0 GB for a Qwen3-0.6B-shaped q4 model);
 * - `q8`: 8-bit MatMul and Gather weights;
 * - MLC `q4f16_1` / `q4f32_1`: 4.5 / 5 bits for every weight, the embedding
 *   stored once (tied), plus the tokenizer.
 * File names follow transformers.js's dtype suffixes (`model_q4f16.onnx`,
 * `model_q4.onnx`, `model_quantized.onnx` for q8); a graph past 2 GB keeps
 * its weights in `<file>_data`.
 */
import type { CatalogEntry, CatalogFile } from "./catalog-schema.js";
import { QWEN35_CATALOG } from "./qwen35-catalog.js";

export { QWEN35_CATALOG };

/** Where model files come from unless a site serves its own copy. */
export const DEFAULT_MODEL_BASE_URL = "https://huggingface.co";

/**
 * The note on the download card where the CPU variant is the one that runs:
 * the same model, on the processor. Every CPU variant gets it (the test
 * models too); a catalog model adds {@link CPU_SLOWER_NOTE}.
 */
export const CPU_FALLBACK_NOTE = "No WebGPU in this browser: the model runs on the processor (CPU).";

/**
 * Added to {@link CPU_FALLBACK_NOTE} for a real model (not a test model,
 * whose few weights answer quickly anywhere): its replies come more slowly
 * than on a graphics chip.
 */
export const CPU_SLOWER_NOTE = "Replies come more slowly than on a graphics chip.";

/** Files every Qwen3 transformers.js variant needs besides its weights (tokenizer sizes are Qwen3's real ones). */
const QWEN3_TEXT_FILES: readonly CatalogFile[] = [
  { path: "config.json", bytes: 1_500 },
  { path: "generation_config.json", bytes: 240 },
  { path: "tokenizer.json", bytes: 11_422_654 },
  { path: "tokenizer_config.json", bytes: 9_675 },
];

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
        repo: "onnx-community/Qwen3-0.6B-ONNX",
        requiresShaderF16: true,
        files: [...QWEN3_TEXT_FILES, { path: "onnx/model_q4f16.onnx", bytes: 646_000_000 }],
        bytes: 657_434_069,
      },
      {
        id: "webgpu-q4",
        engine: "transformers",
        device: "webgpu",
        dtype: "q4",
        repo: "onnx-community/Qwen3-0.6B-ONNX",
        requiresShaderF16: false,
        files: [...QWEN3_TEXT_FILES, { path: "onnx/model_q4.onnx", bytes: 995_000_000 }],
        bytes: 1_006_434_069,
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
        // q8, not q4: 4-bit MatMulNBits runs ~9x slower than q8 on WASM (FACTS.md).
        id: "wasm-q8",
        engine: "transformers",
        device: "wasm",
        dtype: "q8",
        repo: "onnx-community/Qwen3-0.6B-ONNX",
        requiresShaderF16: false,
        files: [...QWEN3_TEXT_FILES, { path: "onnx/model_quantized.onnx", bytes: 752_000_000 }],
        bytes: 763_434_069,
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
        repo: "onnx-community/Qwen3-1.7B-ONNX",
        requiresShaderF16: true,
        files: [...QWEN3_TEXT_FILES, { path: "onnx/model_q4f16.onnx", bytes: 1_590_000_000 }],
        bytes: 1_601_434_069,
      },
      {
        id: "webgpu-q4",
        engine: "transformers",
        device: "webgpu",
        dtype: "q4",
        repo: "onnx-community/Qwen3-1.7B-ONNX",
        requiresShaderF16: false,
        files: [
          ...QWEN3_TEXT_FILES,
          { path: "onnx/model_q4.onnx", bytes: 400_000 },
          { path: "onnx/model_q4.onnx_data", bytes: 2_319_600_000 },
        ],
        bytes: 2_331_434_069,
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
        repo: "onnx-community/Qwen3-4B-ONNX",
        requiresShaderF16: true,
        files: [
          ...QWEN3_TEXT_FILES,
          { path: "onnx/model_q4f16.onnx", bytes: 400_000 },
          { path: "onnx/model_q4f16.onnx_data", bytes: 3_039_600_000 },
        ],
        bytes: 3_051_434_069,
      },
      {
        id: "webgpu-q4",
        engine: "transformers",
        device: "webgpu",
        dtype: "q4",
        repo: "onnx-community/Qwen3-4B-ONNX",
        requiresShaderF16: false,
        files: [
          ...QWEN3_TEXT_FILES,
          { path: "onnx/model_q4.onnx", bytes: 400_000 },
          { path: "onnx/model_q4.onnx_data", bytes: 4_069_600_000 },
        ],
        bytes: 4_081_434_069,
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
export const QWEN_CATALOG: readonly CatalogEntry[] = [...QWEN35_CATALOG, ...QWEN3_CATALOG];
