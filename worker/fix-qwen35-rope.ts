/**
 * transformers.js 4.3.2 feeds Qwen3.5 (`qwen3_5`, `qwen3_5_text`) the wrong
 * positions while it decodes: `_get_text_only_rope_index` (Qwen2-VL's)
 * offsets by `max + 1 + seq_len` where Hugging Face's Python uses
 * `max + 1 - seq_len`, so after a prompt of L tokens every decode step gets
 * position `past + 2L`. The prompt's own positions are right. This patches
 * one loaded model to subtract the 2L back; found and checked on the
 * project's Qwen3.5-shaped model (cached greedy generation then equals
 * decoding from scratch: models/test-models/qwen35-shaped-model.test.ts).
 * A model without the method is left alone.
 */
export function fixQwen35RopeDeltas(model: unknown, Tensor: new (type: "int64", data: BigInt64Array, dims: number[]) => unknown): boolean {
  const target = model as { config?: { model_type?: string }; _get_text_only_rope_index?: (ids: unknown, mask?: { dims: number[] }) => [unknown, { data: BigInt64Array; dims: number[] }] };
  const type = target.config?.model_type;
  if ((type !== "qwen3_5" && type !== "qwen3_5_text") || typeof target._get_text_only_rope_index !== "function") return false;
  const original = target._get_text_only_rope_index.bind(model);
  target._get_text_only_rope_index = (ids, mask) => {
    const [positionIds, deltas] = original(ids, mask);
    if (!mask) return [positionIds, deltas];
    const twice = BigInt(2 * mask.dims[1]!);
    return [positionIds, new Tensor("int64", BigInt64Array.from(deltas.data, (delta) => delta - twice), deltas.dims) as { data: BigInt64Array; dims: number[] }];
  };
  return true;
}
