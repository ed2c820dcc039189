import { QWEN3_END_OF_TEXT, QWEN3_IM_END, type Qwen3ConfigOptions } from "./qwen3-config-files.js";
import type { Qwen35Shape } from "./qwen35-shape.js";

/**
 * `config.json` for a `qwen3_5_text` model: the keys of Qwen3.5-0.8B's
 * `text_config` with this shape's values, so transformers.js 4.3.2 takes the
 * path it takes for a text-only Qwen3.5 export:
 *
 * - `model_type: "qwen3_5_text"` -> `Qwen3_5ForCausalLM`, a DecoderOnly model
 *   with one session, `model` (`onnx/model{suffix}.onnx`), fed `input_ids`
 *   (no `embed_tokens` session);
 * - `architectures: ["Qwen3_5ForCausalLM"]`: a `...ForConditionalGeneration`
 *   there would switch it to the multimodal text-only path
 *   (`embed_tokens` + `decoder_model_merged`);
 * - `layer_types` -> the cache names (`getCacheNames`):
 *   `past_key_values.i.key/value` for `full_attention` layers,
 *   `past_conv.i` + `past_recurrent.i` for `linear_attention` ones;
 * - `vision_config.spatial_merge_size`: `Qwen2VLForConditionalGeneration.get_rope_index`
 *   (which computes the `[3, batch, seq]` position ids for every Qwen3.5)
 *   reads `config.vision_config.spatial_merge_size` and throws without a
 *   `vision_config`, even for text.
 */
export function qwen35ConfigJson(shape: Qwen35Shape, options: Qwen3ConfigOptions = {}): Record<string, unknown> {
  const external = options.externalDataFiles ?? [];
  return {
    architectures: ["Qwen3_5ForCausalLM"],
    model_type: "qwen3_5_text",
    attention_bias: false,
    attention_dropout: 0,
    attn_output_gate: true,
    bos_token_id: QWEN3_END_OF_TEXT,
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
    max_position_embeddings: shape.maxPositionEmbeddings,
    mlp_only_layers: [],
    num_attention_heads: shape.attentionHeads,
    num_hidden_layers: shape.layerTypes.length,
    num_key_value_heads: shape.keyValueHeads,
    pad_token_id: QWEN3_END_OF_TEXT,
    rms_norm_eps: shape.rmsNormEps,
    rope_parameters: {
      mrope_interleaved: true,
      mrope_section: [...shape.mropeSection],
      partial_rotary_factor: shape.partialRotaryFactor,
      rope_theta: shape.ropeTheta,
      rope_type: "default",
    },
    tie_word_embeddings: true,
    torch_dtype: "float32",
    use_cache: true,
    vision_config: { spatial_merge_size: 2 },
    vocab_size: shape.vocabSize,
    ...(external.length > 0
      ? { "transformers.js_config": { use_external_data_format: Object.fromEntries(external.map((file) => [file, true])) } }
      : {}),
  };
}
