import { OnnxGraphBuilder, type OnnxGraph, type WeightDeclaration } from "./onnx-graph-builder.js";
import { QWEN3_END_OF_TEXT, QWEN3_IM_END } from "./qwen3-config-files.js";
import { buildQwen35DecoderGraph } from "./qwen35-decoder-graph.js";
import { TINY_QWEN35_SHAPE, type Qwen35Shape } from "./qwen35-shape.js";
import { qwen35TokenizerFiles } from "./qwen35-tokenizer.js";
import type { TestModelDefinition, TestModelExport } from "./test-model-definition.js";
import { addTokenEmbedding } from "./token-embedding.js";
import { totalWeightBytes } from "./write-onnx-model.js";

/**
 * The hub's multimodal Qwen3.5 export (onnx-community/Qwen3.5-{2B,4B}-ONNX),
 * `quantized` files, rebuilt with random weights: what transformers.js
 * 4.3.2 loads for `dtype: "q8"` when config.json says
 * `Qwen3_5ForConditionalGeneration` (text only: no vision encoder).
 *
 * The hub's byte counts (../shared/hub/hub-facts.json, the original 2B and
 * 4B repositories; the catalog no longer names them) fix the weight format:
 * every quantized tensor is params x 1.15625 bytes (8-bit values in blocks
 * of 32, a float32 scale and a uint8 zero point per block), and the
 * decoder's last chunk is exactly the embedding's size (an LM head of its
 * own). This module writes that as `com.microsoft` `GatherBlockQuantized`
 * (bits 8) and `MatMulNBits` (bits 8), the pair ONNX Runtime's 8-bit
 * weight quantizer writes; the hub files' node types themselves were not
 * readable here. Its gated-DeltaNet layers are written as the -ONNX-OPT
 * exports write them (`buildQwen35DecoderGraph`'s default), where these
 * files loop with `Scan`: the layout changes neither the weights' bytes nor
 * the embedding's kernel, which is what this export is for.
 */

/** Paths of the two sessions, as transformers.js names them for `dtype: "q8"` (suffix `_quantized`). */
export const HUB_QUANTIZED_FILES = {
  embedTokens: "onnx/embed_tokens_quantized.onnx",
  decoder: "onnx/decoder_model_merged_quantized.onnx",
} as const;

/**
 * Most bytes one data chunk takes before the next starts (2 GiB): the
 * hub's chunks stay under it, and a browser's `Response.arrayBuffer()`
 * fails past it.
 */
export const HUB_CHUNK_LIMIT_BYTES = 2 ** 31;

/** `<|vision_start|>`, `<|vision_end|>`, `<|image_pad|>`, `<|video_pad|>` in Qwen3's tokenizer, which the test models ship. */
const QWEN3_VISION_TOKENS = { visionStart: 151_652, visionEnd: 151_653, image: 151_655, video: 151_656 } as const;

/** The `embed_tokens` session: `input_ids` [batch_size, sequence_length] -> `inputs_embeds` [.., hidden], one `GatherBlockQuantized`. */
export function buildQwen35EmbedTokensGraph(shape: Qwen35Shape, seed = 0): OnnxGraph {
  const graph = new OnnxGraphBuilder("embed_tokens");
  const inputIds = graph.input("input_ids", "int64", ["batch_size", "sequence_length"]);
  addTokenEmbedding(graph, { vocabSize: shape.vocabSize, hiddenSize: shape.hiddenSize, format: "q8-blocks", seed }).embed(inputIds, "inputs_embeds");
  graph.output("inputs_embeds", "float32", ["batch_size", "sequence_length", shape.hiddenSize]);
  return graph.build();
}

/** The `decoder_model_merged` session: `inputs_embeds` in, no `num_logits_to_keep`, `MatMulNBits` (bits 8) everywhere. */
export function buildQwen35HubDecoderGraph(shape: Qwen35Shape, seed = 0): OnnxGraph {
  return buildQwen35DecoderGraph({ shape, format: "q8-blocks", seed, input: "inputs_embeds", logitsToKeep: false });
}

/**
 * The decoder's chunk layout, as the hub's is: layer weights fill `_data`,
 * `_data_1`, ... up to `HUB_CHUNK_LIMIT_BYTES` each, and the LM head has the
 * last chunk to itself (2B: layers 1.59 GB + head 0.59 GB; 4B: layers in two
 * chunks + head 0.74 GB).
 */
export function hubDecoderChunks(graph: OnnxGraph): (weight: WeightDeclaration) => number {
  const chunkOf = new Map<string, number>();
  let chunk = 0;
  let used = 0;
  for (const weight of graph.weights) {
    if (weight.name.startsWith("lm_head.")) continue;
    if (used > 0 && used + weight.byteLength > HUB_CHUNK_LIMIT_BYTES) {
      chunk += 1;
      used = 0;
    }
    chunkOf.set(weight.name, chunk);
    used += weight.byteLength;
  }
  const headChunk = chunk + 1;
  return (weight) => chunkOf.get(weight.name) ?? headChunk;
}

/** How many data chunks `hubDecoderChunks` gives the decoder (what config.json must declare). */
export function hubDecoderChunkCount(graph: OnnxGraph): number {
  const chunkOf = hubDecoderChunks(graph);
  return Math.max(...graph.weights.map((weight) => chunkOf(weight))) + 1;
}

/**
 * config.json with the structure of the hub's (the hub's Qwen3.5-2B config.json at its pinned commit):
 * `architectures: ["Qwen3_5ForConditionalGeneration"]` and `model_type:
 * "qwen3_5"` switch transformers.js to the `embed_tokens` +
 * `decoder_model_merged` sessions; `text_config` carries the shape;
 * `vision_config` is there because `get_rope_index` reads its
 * `spatial_merge_size` even for text; `transformers.js_config.use_external_data_format`
 * declares the chunks (`embed_tokens` by base name, the decoder by file
 * name, as the hub's does). Token ids are those of the Qwen3 tokenizer the
 * test models ship.
 */
export function qwen35HubConfigJson(shape: Qwen35Shape, decoderChunks: number): Record<string, unknown> {
  return {
    architectures: ["Qwen3_5ForConditionalGeneration"],
    image_token_id: QWEN3_VISION_TOKENS.image,
    model_type: "qwen3_5",
    text_config: {
      attention_bias: false,
      attention_dropout: 0,
      attn_output_gate: true,
      bos_token_id: null,
      dtype: "bfloat16",
      eos_token_id: QWEN3_IM_END,
      full_attention_interval: 4,
      head_dim: shape.headDim,
      hidden_act: "silu",
      hidden_size: shape.hiddenSize,
      initializer_range: 0.02,
      intermediate_size: shape.intermediateSize,
      layer_types: [...shape.layerTypes],
      linear_conv_kernel_dim: shape.convKernel,
      linear_key_head_dim: shape.linearKeyHeadDim,
      linear_num_key_heads: shape.linearKeyHeads,
      linear_num_value_heads: shape.linearValueHeads,
      linear_value_head_dim: shape.linearValueHeadDim,
      mamba_ssm_dtype: "float32",
      max_position_embeddings: shape.maxPositionEmbeddings,
      mlp_only_layers: [],
      model_type: "qwen3_5_text",
      mtp_num_hidden_layers: 1,
      mtp_use_dedicated_embeddings: false,
      num_attention_heads: shape.attentionHeads,
      num_hidden_layers: shape.layerTypes.length,
      num_key_value_heads: shape.keyValueHeads,
      pad_token_id: QWEN3_END_OF_TEXT,
      partial_rotary_factor: shape.partialRotaryFactor,
      rms_norm_eps: shape.rmsNormEps,
      rope_parameters: {
        mrope_interleaved: true,
        mrope_section: [...shape.mropeSection],
        partial_rotary_factor: shape.partialRotaryFactor,
        rope_theta: shape.ropeTheta,
        rope_type: "default",
      },
      tie_word_embeddings: true,
      use_cache: true,
      vocab_size: shape.vocabSize,
    },
    tie_word_embeddings: true,
    transformers_version: "5.3.0.dev0",
    video_token_id: QWEN3_VISION_TOKENS.video,
    vision_config: {
      deepstack_visual_indexes: [],
      depth: 24,
      hidden_act: "gelu_pytorch_tanh",
      hidden_size: 1024,
      in_channels: 3,
      initializer_range: 0.02,
      intermediate_size: 4096,
      model_type: "qwen3_5",
      num_heads: 16,
      num_position_embeddings: 2304,
      out_hidden_size: shape.hiddenSize,
      patch_size: 16,
      spatial_merge_size: 2,
      temporal_patch_size: 2,
    },
    vision_end_token_id: QWEN3_VISION_TOKENS.visionEnd,
    vision_start_token_id: QWEN3_VISION_TOKENS.visionStart,
    "transformers.js_config": {
      use_external_data_format: { embed_tokens: 1, "decoder_model_merged_quantized.onnx": decoderChunks },
      kv_cache_dtype: { q4f16: "float16", fp16: "float16" },
    },
  };
}

/** Options for `qwen35HubQuantizedModel`. */
export interface Qwen35HubQuantizedModelOptions {
  /** Default `tiny-qwen35-hub-quantized`. */
  id?: string;
  /** Default `TINY_QWEN35_SHAPE`; `QWEN35_2B_SHAPE` gives the 2B's exact tensor shapes (2.8 GB). */
  shape?: Qwen35Shape;
  /** Weight seed (default 0). */
  seed?: number;
}

/**
 * A random-weight model laid out as the hub's Qwen3.5 `quantized` build:
 * `onnx/embed_tokens_quantized.onnx` + `_data` (GatherBlockQuantized),
 * `onnx/decoder_model_merged_quantized.onnx` + `_data` (layers) + `_data_1`
 * (LM head; more layer chunks before it past 2 GiB), config.json as above,
 * Qwen3's tokenizer with Qwen3.5's chat template. Load it with
 * `AutoModelForCausalLM.from_pretrained(id, { dtype: "q8" })`.
 */
export function qwen35HubQuantizedModel(options: Qwen35HubQuantizedModelOptions = {}): TestModelDefinition {
  const shape = options.shape ?? TINY_QWEN35_SHAPE;
  const seed = options.seed ?? 0;
  const createExport = (): TestModelExport => {
    const embedTokens = buildQwen35EmbedTokensGraph(shape, seed);
    const decoder = buildQwen35HubDecoderGraph(shape, seed);
    return {
      config: qwen35HubConfigJson(shape, hubDecoderChunkCount(decoder)),
      files: [
        { path: HUB_QUANTIZED_FILES.embedTokens, graph: embedTokens },
        { path: HUB_QUANTIZED_FILES.decoder, graph: decoder, externalDataChunk: hubDecoderChunks(decoder) },
      ],
    };
  };
  return {
    id: options.id ?? "tiny-qwen35-hub-quantized",
    dtype: "q8",
    description: "random weights in the hub's Qwen3.5 quantized multimodal layout (embed_tokens + decoder_model_merged, 8-bit blocks): does it load on WASM",
    shape,
    options: { shape, seed, layout: "hub-quantized" },
    // Declaring the graphs fills no weights, so the size is known before a build.
    approximateBytes: createExport().files.reduce((sum, file) => sum + totalWeightBytes(file.graph), 0) + 11_400_000,
    tokenizerFiles: qwen35TokenizerFiles,
    createGraph: () => buildQwen35HubDecoderGraph(shape, seed),
    createExport,
  };
}
