/**
 * Qwen3.5 0.8B, 2B and 4B (format `"qwen3.5"`: XML tool calls, thinking off
 * by default in the Small models' template), on WebGPU only: no variant runs
 * on ONNX Runtime's WASM backend (see below). Plain data, checked against
 * `catalog-schema.ts` by a test. Sources: `research-qwen35.md` sections 3-5.
 *
 * transformers.js variants, by what onnx-community publishes:
 * - 0.8B: `onnx-community/Qwen3.5-0.8B-Text-ONNX`, the text model alone
 *   (`model_type` `qwen3_5_text`): one graph, `onnx/model_<dtype>.onnx` with
 *   its weights in `.onnx_data`, loaded like Qwen3's.
 * - 2B, 4B: `onnx-community/Qwen3.5-{2B,4B}-ONNX`, the multimodal export.
 *   `AutoModelForCausalLM` on its `Qwen3_5ForConditionalGeneration` config
 *   loads it text-only: the `embed_tokens` and `decoder_model_merged`
 *   sessions, never `vision_encoder`; a string `dtype` picks both sessions'
 *   files (`embed_tokens_q4f16.onnx`, `decoder_model_merged_q4f16.onnx`).
 *   4B's decoder weights are past 2 GB: two data files.
 * - WebGPU q4f16 everywhere; q4 (fp32 activations, for a GPU without
 *   `shader-f16`) where a file list shows it (0.8B Text-ONNX, 2B). 4B
 *   without `shader-f16` runs web-llm's q4f32_1.
 * - No CPU variant: the q4/q4f16 graphs quantize the embedding with
 *   GatherBlockQuantized, which ONNX Runtime's WASM backend has no kernel
 *   for (third-party, unverified here), and nothing shows the ~0.9 GB
 *   `quantized` 0.8B graph (or the Gated DeltaNet layers) running on WASM.
 *   The CPU keeps Qwen3 0.6B (q8).
 *
 * Sizes are approximate:
 * - 0.8B q4f16 (448 MiB) and q4 (526 MB) and 2B q4f16 (1.32 GB) are
 *   third-party figures (projects' manifests and benchmark lists, research
 *   section 4); the split between a graph and its data, and every other
 *   transformers.js size, are estimates from the text model's parameters
 *   (derived from its config: 752M, 1.88B, 4.21B, embeddings included) at
 *   4.5 bits per weight for q4f16 and 5 for q4, the LM head counted in the
 *   decoder; tokenizer and config sizes are the 0.8B export's (the family
 *   shares the tokenizer).
 * - web-llm: the same parameters at 4.5 (`q4f16_1`) / 5 (`q4f32_1`) bits,
 *   the embedding stored once, plus the tokenizer, as for Qwen3. Each brief
 *   gives web-llm's `vram_required_MB` (0.2.86 `prebuiltAppConfig`) as the
 *   GPU memory it needs.
 */
import type { CatalogEntry, CatalogFile } from "./catalog-schema.js";

/** Files every Qwen3.5 transformers.js variant needs besides its weights (the 0.8B export's sizes). */
const QWEN35_TEXT_FILES: readonly CatalogFile[] = [
  { path: "config.json", bytes: 2_849 },
  { path: "generation_config.json", bytes: 248 },
  { path: "tokenizer.json", bytes: 19_226_111 },
  { path: "tokenizer_config.json", bytes: 9_161 },
];

/** Sum of {@link QWEN35_TEXT_FILES}. */
const TEXT_FILES_BYTES = 19_238_369;

export const QWEN35_CATALOG: readonly CatalogEntry[] = [
  {
    id: "qwen3.5-0.8b",
    label: "Qwen3.5 0.8B",
    brief: "The newest small Qwen: quick to download and to answer, on a GPU.",
    parameters: 752_393_024,
    format: "qwen3.5",
    recommended: true,
    variants: [
      {
        id: "webgpu-q4f16",
        engine: "transformers",
        device: "webgpu",
        dtype: "q4f16",
        repo: "onnx-community/Qwen3.5-0.8B-Text-ONNX",
        requiresShaderF16: true,
        files: [...QWEN35_TEXT_FILES, { path: "onnx/model_q4f16.onnx", bytes: 3_000_000 }, { path: "onnx/model_q4f16.onnx_data", bytes: 466_762_048 }],
        bytes: TEXT_FILES_BYTES + 469_762_048,
      },
      {
        id: "webgpu-q4",
        engine: "transformers",
        device: "webgpu",
        dtype: "q4",
        repo: "onnx-community/Qwen3.5-0.8B-Text-ONNX",
        requiresShaderF16: false,
        files: [...QWEN35_TEXT_FILES, { path: "onnx/model_q4.onnx", bytes: 3_000_000 }, { path: "onnx/model_q4.onnx_data", bytes: 523_000_000 }],
        bytes: TEXT_FILES_BYTES + 526_000_000,
      },
      {
        id: "webgpu-mlc-q4f16_1",
        engine: "web-llm",
        device: "webgpu",
        dtype: "q4f16_1",
        repo: "Qwen3.5-0.8B-q4f16_1-MLC",
        requiresShaderF16: true,
        files: [],
        bytes: 442_000_000,
        brief: "The newest small Qwen: quick to download and to answer, on a GPU with about 1.6 GB of memory free.",
      },
      {
        id: "webgpu-mlc-q4f32_1",
        engine: "web-llm",
        device: "webgpu",
        dtype: "q4f32_1",
        repo: "Qwen3.5-0.8B-q4f32_1-MLC",
        requiresShaderF16: false,
        files: [],
        bytes: 489_000_000,
        brief: "The newest small Qwen: quick to download and to answer, on a GPU with about 1.9 GB of memory free.",
      },
    ],
  },
  {
    id: "qwen3.5-2b",
    label: "Qwen3.5 2B",
    brief: "Follows multi-step requests more reliably than 0.8B; needs a recent GPU and a bigger download.",
    parameters: 1_881_825_088,
    format: "qwen3.5",
    variants: [
      {
        id: "webgpu-q4f16",
        engine: "transformers",
        device: "webgpu",
        dtype: "q4f16",
        repo: "onnx-community/Qwen3.5-2B-ONNX",
        requiresShaderF16: true,
        files: [
          ...QWEN35_TEXT_FILES,
          { path: "onnx/embed_tokens_q4f16.onnx", bytes: 1_000 },
          { path: "onnx/embed_tokens_q4f16.onnx_data", bytes: 286_000_000 },
          { path: "onnx/decoder_model_merged_q4f16.onnx", bytes: 600_000 },
          { path: "onnx/decoder_model_merged_q4f16.onnx_data", bytes: 1_034_000_000 },
        ],
        bytes: TEXT_FILES_BYTES + 1_320_601_000,
      },
      {
        id: "webgpu-q4",
        engine: "transformers",
        device: "webgpu",
        dtype: "q4",
        repo: "onnx-community/Qwen3.5-2B-ONNX",
        requiresShaderF16: false,
        files: [
          ...QWEN35_TEXT_FILES,
          { path: "onnx/embed_tokens_q4.onnx", bytes: 1_000 },
          { path: "onnx/embed_tokens_q4.onnx_data", bytes: 318_000_000 },
          { path: "onnx/decoder_model_merged_q4.onnx", bytes: 600_000 },
          { path: "onnx/decoder_model_merged_q4.onnx_data", bytes: 1_176_000_000 },
        ],
        bytes: TEXT_FILES_BYTES + 1_494_601_000,
      },
      {
        id: "webgpu-mlc-q4f16_1",
        engine: "web-llm",
        device: "webgpu",
        dtype: "q4f16_1",
        repo: "Qwen3.5-2B-q4f16_1-MLC",
        requiresShaderF16: true,
        files: [],
        bytes: 1_078_000_000,
        brief: "Follows multi-step requests more reliably than 0.8B; needs a recent GPU with about 2.2 GB of memory free.",
      },
      {
        id: "webgpu-mlc-q4f32_1",
        engine: "web-llm",
        device: "webgpu",
        dtype: "q4f32_1",
        repo: "Qwen3.5-2B-q4f32_1-MLC",
        requiresShaderF16: false,
        files: [],
        bytes: 1_195_000_000,
        brief: "Follows multi-step requests more reliably than 0.8B; needs a recent GPU with about 2.6 GB of memory free.",
      },
    ],
  },
  {
    id: "qwen3.5-4b",
    label: "Qwen3.5 4B",
    brief: "The most capable Qwen3.5 here, for a fast GPU with memory to spare; a large download.",
    parameters: 4_205_751_296,
    format: "qwen3.5",
    variants: [
      {
        id: "webgpu-q4f16",
        engine: "transformers",
        device: "webgpu",
        dtype: "q4f16",
        repo: "onnx-community/Qwen3.5-4B-ONNX",
        requiresShaderF16: true,
        files: [
          ...QWEN35_TEXT_FILES,
          { path: "onnx/embed_tokens_q4f16.onnx", bytes: 1_000 },
          { path: "onnx/embed_tokens_q4f16.onnx_data", bytes: 358_000_000 },
          { path: "onnx/decoder_model_merged_q4f16.onnx", bytes: 600_000 },
          { path: "onnx/decoder_model_merged_q4f16.onnx_data", bytes: 1_900_000_000 },
          { path: "onnx/decoder_model_merged_q4f16.onnx_data_1", bytes: 466_000_000 },
        ],
        bytes: TEXT_FILES_BYTES + 2_724_601_000,
      },
      {
        id: "webgpu-mlc-q4f16_1",
        engine: "web-llm",
        device: "webgpu",
        dtype: "q4f16_1",
        repo: "Qwen3.5-4B-q4f16_1-MLC",
        requiresShaderF16: true,
        files: [],
        bytes: 2_385_000_000,
        brief: "The most capable Qwen3.5 here, for a fast GPU with about 3.9 GB of memory free; a large download.",
      },
      {
        id: "webgpu-mlc-q4f32_1",
        engine: "web-llm",
        device: "webgpu",
        dtype: "q4f32_1",
        repo: "Qwen3.5-4B-q4f32_1-MLC",
        requiresShaderF16: false,
        files: [],
        bytes: 2_648_000_000,
        brief: "The most capable Qwen3.5 here, for a fast GPU with about 4.7 GB of memory free; a large download.",
      },
    ],
  },
];
