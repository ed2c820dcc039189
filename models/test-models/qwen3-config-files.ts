import type { Qwen3Shape } from "./qwen3-shape.js";

/** Qwen3's `<|endoftext|>` token id: its bos and pad token. */
export const QWEN3_END_OF_TEXT = 151_643;
/** Qwen3's `<|im_end|>` token id: the end of a chat turn, where generation stops. */
export const QWEN3_IM_END = 151_645;

/** Options for `qwen3ConfigJson`. */
export interface Qwen3ConfigOptions {
  /**
   * ONNX files (e.g. `"model.onnx"`) whose weights are in external data
   * (`model.onnx_data`): transformers.js fetches that file only when
   * `transformers.js_config.use_external_data_format` names it.
   */
  externalDataFiles?: readonly string[];
}

/**
 * `config.json` for a `qwen3` model with the given shape: Qwen3-0.6B's own
 * file with the dimensions replaced, so transformers.js takes the same path
 * it takes for the real model (`Qwen3ForCausalLM`, cache names from
 * `num_hidden_layers`, `num_key_value_heads`, `head_dim`).
 */
export function qwen3ConfigJson(shape: Qwen3Shape, options: Qwen3ConfigOptions = {}): Record<string, unknown> {
  const external = options.externalDataFiles ?? [];
  return {
    architectures: ["Qwen3ForCausalLM"],
    attention_bias: false,
    attention_dropout: 0,
    bos_token_id: QWEN3_END_OF_TEXT,
    eos_token_id: QWEN3_IM_END,
    head_dim: shape.headDim,
    hidden_act: "silu",
    hidden_size: shape.hiddenSize,
    initializer_range: 0.02,
    intermediate_size: shape.intermediateSize,
    max_position_embeddings: shape.maxPositionEmbeddings,
    max_window_layers: shape.layers,
    model_type: "qwen3",
    num_attention_heads: shape.attentionHeads,
    num_hidden_layers: shape.layers,
    num_key_value_heads: shape.keyValueHeads,
    rms_norm_eps: shape.rmsNormEps,
    rope_scaling: null,
    rope_theta: shape.ropeTheta,
    sliding_window: null,
    tie_word_embeddings: true,
    torch_dtype: "float32",
    use_cache: true,
    use_sliding_window: false,
    vocab_size: shape.vocabSize,
    ...(external.length > 0
      ? { "transformers.js_config": { use_external_data_format: Object.fromEntries(external.map((file) => [file, true])) } }
      : {}),
  };
}

/**
 * Qwen3-0.6B's `generation_config.json`: sampling on (temperature 0.6, top-k
 * 20, top-p 0.95), stopping at `<|im_end|>` or `<|endoftext|>`. Callers that
 * want greedy decoding pass `do_sample: false` to `generate()`.
 */
export function qwen3GenerationConfigJson(): Record<string, unknown> {
  return {
    bos_token_id: QWEN3_END_OF_TEXT,
    do_sample: true,
    eos_token_id: [QWEN3_IM_END, QWEN3_END_OF_TEXT],
    pad_token_id: QWEN3_END_OF_TEXT,
    temperature: 0.6,
    top_k: 20,
    top_p: 0.95,
  };
}
