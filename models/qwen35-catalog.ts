/**
 * Qwen3.5 0.8B, 2B and 4B (format `"qwen3.5"`: XML tool calls, thinking off
 * unless `enableThinking`), on WebGPU only. Plain data, checked against
 * `catalog-schema.ts` by a test. Sources: the repos' config.json and chat
 * templates, and for the files `qwen35-hub-files.json`: each repo pinned to
 * one commit, exact sizes and, where recorded, sha256 (`catalog.hub.test.ts`
 * checks every variant against the recorded hub facts,
 * ../shared/hub/hub-facts.json).
 *
 * transformers.js variants: the `onnx-community/Qwen3.5-{0.8B,2B,4B}-ONNX-OPT`
 * re-exports (pushed 2026-04-22, the original repos' `new_version`). The
 * originals (`Qwen3.5-0.8B-Text-ONNX`, `-2B-ONNX`, `-4B-ONNX`) run each
 * gated-DeltaNet layer as an ONNX `Scan`, one prompt position per iteration:
 * 4B q4f16 prefill of 252 positions took 13.0 s there and 0.85-0.93 s on
 * -OPT (M2 Max, Chrome; transformers.js issue 1599, comment of 2026-08-14),
 * 0.8B 165-171 ms a prompt token there against 1-2 on -OPT (a third-party
 * model list, 2026-08-18), and ~16 s to first token on a 110-token prompt
 * (kizuna-ai-lab/sokuji issue 306). -OPT computes those layers with the
 * `com.microsoft` `LinearAttention` and `CausalConvWithState` operators
 * (microsoft/onnxruntime PR 27996) and keeps a conv cache of kernel-1 = 3
 * columns, which transformers.js builds from the graph's own input shapes
 * since 4.2 (PR 1657; package.json asks for ^4.3.2). The project's
 * Qwen3.5-shaped test models are exported the same way
 * (models/test-models/qwen35-gated-deltanet-layer.ts), and
 * `npm run bench:qwen35-prefill` prefills one of them in both layouts.
 * - All three are the multimodal layout (`Qwen3_5ForConditionalGeneration`;
 *   there is no "-Text-" -OPT repo): `AutoModelForCausalLM` loads it
 *   text-only, the `embed_tokens` and `decoder_model_merged` sessions, never
 *   `vision_encoder`; a string `dtype` picks both sessions' files. Each
 *   ships `chat_template.jinja` (the same text as `tokenizer_config.json`'s
 *   template).
 * - 0.8B: q4 pinned by sha256; q4f16 by size only (no record gives its
 *   hashes at this commit).
 * - 2B: q4f16 and q4 pinned by sha256.
 * - 4B: q4f16 pinned by sha256, its decoder in two data chunks. No q4 build
 *   of the 4B -OPT was seen, so a GPU without `shader-f16` gets web-llm's
 *   q4f32_1 for it.
 * - No int8 (`quantized`) or fp16 -OPT build was seen.
 *
 * **transformers.js first on WebGPU** (`engines`). web-llm went first while
 * the catalog named the `Scan` exports: transformers.js issue 1599 reported
 * Qwen3.5 about 20x slower to first token than Qwen3 of the same size, and
 * that cost was the `Scan` (its 2026-08-14 comment: Scan-to-Identity
 * ablation takes the 4B's 252-position prefill from 13.99 s to 1.24 s). On
 * -OPT the prefill is one pass over the prompt, not a loop step per
 * position (this project's bench, CPU only: the Scan layout 1.3-1.6x
 * slower on the same model; README, "Model formats"). With
 * the first token no longer the wall, transformers.js is the better engine
 * for tool use: the tool-call constraint is exact only there, and web-llm
 * 0.2.86 refuses `tools` for Qwen3.5 (Hermes-only list). Decode was the
 * other half of issue 1599's report (about 3x slower than Qwen3); -OPT's
 * conv-cache operators gave "over 2x speedup for qwen3.5 decode"
 * (transformers.js PR 1657), and -OPT's decode against web-llm's was not
 * measured here (no GPU in this project's runs). web-llm stays second, and
 * serves the 4B on a GPU without `shader-f16`.
 *
 * No CPU variant. -OPT's own operators are not what stops it: the shaped
 * test model exported with them loads and generates on the wasm build
 * transformers.js 4.3 loads (asyncify, what the worker serves;
 * models/test-models/qwen35-models.browser.test.ts). But -OPT has no int8
 * build, and its q4/q4f16 embedding is one quantized Gather (a third-party
 * description of the 0.8B's embed_tokens graph, not read here): ONNX
 * Runtime's `GatherBlockQuantized`, which that wasm build does not have
 * (models/test-models/qwen35-quantized-export.browser.test.ts). The
 * originals' int8 builds fail there too: no GatherBlockQuantized kernel, and
 * with onnxruntime-web's plain build the 2B's first forward pass runs out of
 * the wasm32 heap (bad_alloc; the LM head's float32 copy alone is 2.03 GB)
 * and the 4B's 5.6 GB of weights cannot load (bench/qwen35-hub-quantized-size.ts).
 * The CPU keeps Qwen3 0.6B (q8).
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

/** transformers.js before web-llm on WebGPU: see the note at the top. */
const TRANSFORMERS_FIRST = ["transformers", "web-llm"] as const;

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
    engines: TRANSFORMERS_FIRST,
    recommended: true,
    variants: [
      {
        id: "webgpu-q4f16",
        engine: "transformers",
        device: "webgpu",
        dtype: "q4f16",
        requiresShaderF16: true,
        .../* @__PURE__ */ multimodal("onnx-community/Qwen3.5-0.8B-ONNX-OPT", "q4f16", 1),
      },
      {
        id: "webgpu-q4",
        engine: "transformers",
        device: "webgpu",
        dtype: "q4",
        requiresShaderF16: false,
        .../* @__PURE__ */ multimodal("onnx-community/Qwen3.5-0.8B-ONNX-OPT", "q4", 1),
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
    engines: TRANSFORMERS_FIRST,
    variants: [
      {
        id: "webgpu-q4f16",
        engine: "transformers",
        device: "webgpu",
        dtype: "q4f16",
        requiresShaderF16: true,
        .../* @__PURE__ */ multimodal("onnx-community/Qwen3.5-2B-ONNX-OPT", "q4f16", 1),
      },
      {
        id: "webgpu-q4",
        engine: "transformers",
        device: "webgpu",
        dtype: "q4",
        requiresShaderF16: false,
        .../* @__PURE__ */ multimodal("onnx-community/Qwen3.5-2B-ONNX-OPT", "q4", 1),
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
    engines: TRANSFORMERS_FIRST,
    variants: [
      {
        id: "webgpu-q4f16",
        engine: "transformers",
        device: "webgpu",
        dtype: "q4f16",
        requiresShaderF16: true,
        .../* @__PURE__ */ multimodal("onnx-community/Qwen3.5-4B-ONNX-OPT", "q4f16", 2),
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
