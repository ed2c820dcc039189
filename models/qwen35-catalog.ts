/**
 * Qwen3.5 0.8B, 2B and 4B (format `"qwen3.5"`: XML tool calls, thinking off
 * unless `enableThinking`), on WebGPU only. Plain data, checked against
 * `catalog-schema.ts` by a test. Sources: the repos' config.json and chat
 * templates, and for the files `qwen35-hub-files.json`: each repo pinned to
 * one commit, exact sizes and, where recorded, sha256 (`catalog.hub.test.ts`
 * checks every variant against the recorded hub facts).
 *
 * **web-llm first on WebGPU** (`engines`): Qwen3.5 through transformers.js
 * on WebGPU is reported about 3x slower to decode and 20x slower to first
 * token than Qwen3 of the same size (transformers.js issue 1599, open,
 * Qwen3.5-4B q4f16 on an M2 Pro), and 0.8B at 0.7 tokens/s on an RTX 4070
 * (kizuna-ai-lab/sokuji issue 306); web-llm runs the hybrid state natively
 * since 0.2.83. The transformers.js variants stay for a site that passes
 * `engines: ["transformers"]`, and for the constraint's exactness, which
 * only the transformers.js engine has in full.
 *
 * transformers.js variants, by what the repos hold at their commits:
 * - 0.8B: `onnx-community/Qwen3.5-0.8B-Text-ONNX`, the text model alone
 *   (`model_type` `qwen3_5_text`): one graph, `onnx/model_<dtype>.onnx`
 *   with its weights in one `.onnx_data`, loaded like Qwen3's. Sizes only:
 *   no sha256 is recorded at this commit.
 * - 2B, 4B: `onnx-community/Qwen3.5-{2B,4B}-ONNX`, the multimodal export.
 *   `AutoModelForCausalLM` on its `Qwen3_5ForConditionalGeneration` config
 *   loads it text-only: the `embed_tokens` and `decoder_model_merged`
 *   sessions, never `vision_encoder`; a string `dtype` picks both sessions'
 *   files. q4f16 and q4 pinned by sha256; 4B's decoder has two data chunks.
 *   Both ship `chat_template.jinja` (the same text as `tokenizer_config.json`'s
 *   template).
 * - No CPU variant, found with the project's Qwen3.5-shaped model exported
 *   as the hub's 2B/4B `quantized` builds are (8-bit blocks:
 *   GatherBlockQuantized for the embedding, MatMulNBits for the layers;
 *   models/test-models/qwen35-quantized-export.browser.test.ts): the wasm
 *   build transformers.js 4.3 loads (asyncify, what the worker serves) has
 *   no GatherBlockQuantized kernel, so the embedding session cannot be
 *   created. onnxruntime-web's plain build has one, but then memory is the
 *   wall: its heap is wasm32 (4 GiB), MatMulNBits turns a weight matrix into
 *   float32 on every call on WASM, and at the 2B's shapes the first forward
 *   pass fails with bad_alloc (the LM head's copy alone is 2.03 GB); the
 *   4B's 5.6 GB of weights cannot load at all
 *   (bench/qwen35-hub-quantized-size.ts). The q4/q4f16 builds use the same
 *   embedding kernel. The CPU keeps Qwen3 0.6B (q8).
 *
 * web-llm: sizes are the parameters at 4.5 (`q4f16_1`) / 5 (`q4f32_1`) bits,
 * the embedding stored once, plus the tokenizer, as for Qwen3. Each brief
 * gives web-llm's `vram_required_MB` (0.2.86 `prebuiltAppConfig`) as the GPU
 * memory it needs.
 */
import type { CatalogEntry } from "./catalog-schema.js";
import { hubVariantFiles } from "./hub-files.js";
import QWEN35_HUB_FILES from "./qwen35-hub-files.json";

/** Files every Qwen3.5 transformers.js variant needs besides its weights. */
const TEXT_FILES = ["config.json", "generation_config.json", "tokenizer.json", "tokenizer_config.json"] as const;

/** Web-llm before transformers.js on WebGPU: see the note at the top. */
const WEB_LLM_FIRST = ["web-llm", "transformers"] as const;

/** A Qwen3.5-0.8B-Text variant: one graph and its data. */
const textOnnx = (dtype: string) =>
  hubVariantFiles(QWEN35_HUB_FILES, "onnx-community/Qwen3.5-0.8B-Text-ONNX", [...TEXT_FILES, `onnx/model_${dtype}.onnx`, `onnx/model_${dtype}.onnx_data`]);

/** A multimodal export's text-only files for `dtype`: the embedding and the decoder, each with its data chunks. */
const multimodal = (repo: string, dtype: string, decoderChunks: number) =>
  hubVariantFiles(QWEN35_HUB_FILES, repo, [
    ...TEXT_FILES,
    "chat_template.jinja",
    `onnx/embed_tokens_${dtype}.onnx`,
    `onnx/embed_tokens_${dtype}.onnx_data`,
    `onnx/decoder_model_merged_${dtype}.onnx`,
    ...Array.from({ length: decoderChunks }, (_, index) => `onnx/decoder_model_merged_${dtype}.onnx_data${index === 0 ? "" : `_${index}`}`),
  ]);

export const QWEN35_CATALOG: readonly CatalogEntry[] = [
  {
    id: "qwen3.5-0.8b",
    label: "Qwen3.5 0.8B",
    brief: "The newest small Qwen: quick to download and to answer, on a GPU.",
    parameters: 752_393_024,
    format: "qwen3.5",
    engines: WEB_LLM_FIRST,
    recommended: true,
    variants: [
      {
        id: "webgpu-q4f16",
        engine: "transformers",
        device: "webgpu",
        dtype: "q4f16",
        requiresShaderF16: true,
        .../* @__PURE__ */ textOnnx("q4f16"),
      },
      {
        id: "webgpu-q4",
        engine: "transformers",
        device: "webgpu",
        dtype: "q4",
        requiresShaderF16: false,
        .../* @__PURE__ */ textOnnx("q4"),
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
    engines: WEB_LLM_FIRST,
    variants: [
      {
        id: "webgpu-q4f16",
        engine: "transformers",
        device: "webgpu",
        dtype: "q4f16",
        requiresShaderF16: true,
        .../* @__PURE__ */ multimodal("onnx-community/Qwen3.5-2B-ONNX", "q4f16", 1),
      },
      {
        id: "webgpu-q4",
        engine: "transformers",
        device: "webgpu",
        dtype: "q4",
        requiresShaderF16: false,
        .../* @__PURE__ */ multimodal("onnx-community/Qwen3.5-2B-ONNX", "q4", 1),
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
    engines: WEB_LLM_FIRST,
    variants: [
      {
        id: "webgpu-q4f16",
        engine: "transformers",
        device: "webgpu",
        dtype: "q4f16",
        requiresShaderF16: true,
        .../* @__PURE__ */ multimodal("onnx-community/Qwen3.5-4B-ONNX", "q4f16", 2),
      },
      {
        id: "webgpu-q4",
        engine: "transformers",
        device: "webgpu",
        dtype: "q4",
        requiresShaderF16: false,
        .../* @__PURE__ */ multimodal("onnx-community/Qwen3.5-4B-ONNX", "q4", 2),
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
