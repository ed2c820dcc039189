import { onesWeight, rmsNorm, silu } from "./graph-primitives.js";
import { linearProjection, type WeightFormat } from "./linear-projection.js";
import type { OnnxGraphBuilder } from "./onnx-graph-builder.js";
import { qwen35ConvChannels, type Qwen35Shape } from "./qwen35-shape.js";
import { fillUniformFloat32, seedFromName } from "./seeded-random.js";

/** What a Qwen3.5 linear-attention block reads besides its own weights. */
export interface Qwen35LinearAttentionInputs {
  index: number;
  shape: Qwen35Shape;
  format: WeightFormat;
  seed: number;
  /** The residual stream [batch, seq, hidden]. */
  hidden: string;
  /** `past_conv.{index}` [batch, convChannels, convKernel]: the conv's input at the last `convKernel` positions. */
  pastConv: string;
  /** `past_recurrent.{index}` [batch, valueHeads, keyHeadDim, valueHeadDim]. */
  pastRecurrent: string;
  /** The new tokens' `attention_mask` as float [batch, seq] (0 for padding). */
  newTokenMask: string;
  /** Causal mask over the new tokens, bool [seq, seq]: query >= key. */
  causal: string;
}

/** A score far enough below zero that `Exp` of it is 0 (masked decay terms). */
const MASKED = -1e9;

/**
 * A stand-in for Qwen3.5's Gated DeltaNet block, with its weights, its
 * states and its per-token cost, though not its exact update rule:
 *
 * 1. `in_proj_qkv` (hidden -> q, k, v), `in_proj_z` (the output gate),
 *    `in_proj_b` and `in_proj_a` (per value head: write strength and decay);
 * 2. a depthwise causal conv (kernel `convKernel`) over q, k, v, continuing
 *    from `past_conv.i` (the last `convKernel` inputs; the new ones become
 *    `present_conv.i`), then SiLU;
 * 3. L2-normed q and k, q scaled by 1/sqrt(dk); per head and token a decay
 *    `g = exp(-exp(A_log) * softplus(a + dt_bias))` and `beta = sigmoid(b)`;
 * 4. the recurrence `S_t = g_t * S_{t-1} + k_t^T (beta_t v_t)`, readout
 *    `o_t = q_t S_t`, from `past_recurrent.i` to `present_recurrent.i`
 *    ([batch, valueHeads, dk, dv]). The real block uses the delta rule
 *    (`S_t = g_t S_{t-1} + k_t^T beta_t (v_t - k_t g_t S_{t-1})`), which costs
 *    one more [dk] x [dk, dv] product per head and token (about 1% of a
 *    token's work at the 0.8B's shapes);
 * 5. a gated RMSNorm (`rmsnorm(o) * silu(z)`, per head) and `out_proj`.
 *
 * The recurrence is computed in parallel over the new tokens, with
 * G = cumsum(log g): `o_t = e^{G_t} q_t S_0 + sum_{u<=t} e^{G_t - G_u} (q_t . k_u) v_u`
 * and `S_T = e^{G_T} S_0 + sum_u e^{G_T - G_u} k_u^T v_u`: exact for this
 * rule, no loop (ONNX Runtime's WASM and WebGPU both run it), at
 * O(seq^2) memory per head for a prompt (a [heads, seq, seq] decay matrix:
 * 16 x 2,000 x 2,000 floats = 256 MB at the 0.8B's shapes; generation steps
 * are O(1)). Padding tokens (mask 0) neither write nor decay the state.
 * Returns the residual stream after the block (no MLP).
 */
export function addQwen35LinearAttention(graph: OnnxGraphBuilder, inputs: Qwen35LinearAttentionInputs): string {
  const { index, shape, format, seed, hidden } = inputs;
  const { hiddenSize, rmsNormEps, convKernel } = shape;
  const keyHeads = shape.linearKeyHeads;
  const valueHeads = shape.linearValueHeads;
  const keyDim = shape.linearKeyHeadDim;
  const valueDim = shape.linearValueHeadDim;
  const channels = qwen35ConvChannels(shape);
  const prefix = `model.layers.${index}.linear_attn`;
  const int64 = (...values: number[]): string => graph.constant("int64", values);
  const float = (value: number): string => graph.constant("float32", [value], []);
  const project = (x: string, name: string, inFeatures: number, outFeatures: number): string =>
    linearProjection(graph, x, { name: `${prefix}.${name}`, inFeatures, outFeatures, format, seed });
  const end = 2 ** 62;

  const normed = rmsNorm(graph, hidden, onesWeight(graph, `model.layers.${index}.input_layernorm.weight`, hiddenSize), rmsNormEps);
  const qkv = project(normed, "in_proj_qkv", hiddenSize, channels); // [batch, seq, channels]
  const z = project(normed, "in_proj_z", hiddenSize, valueHeads * valueDim);
  const b = project(normed, "in_proj_b", hiddenSize, valueHeads); // [batch, seq, valueHeads]
  const a = project(normed, "in_proj_a", hiddenSize, valueHeads);

  // Causal depthwise conv over [past kernel inputs | new inputs]: output s
  // (0-based among the new) reads window positions s + 1 .. s + kernel.
  const window = graph.op("Concat", [inputs.pastConv, graph.op("Transpose", [qkv], { perm: [0, 2, 1] })], { axis: 2 }); // [batch, channels, kernel + seq]
  graph.op("Slice", [window, int64(-convKernel), int64(end), int64(2)], {}, { output: `present_conv.${index}` });
  const convWeight = graph.weight(`${prefix}.conv1d.weight`, "float32", [channels, 1, convKernel], (target) =>
    fillUniformFloat32(new Float32Array(target.buffer, target.byteOffset, target.byteLength / 4), seedFromName(`${prefix}.conv1d.weight`, seed), 1 / Math.sqrt(convKernel)),
  );
  let conv = "";
  for (let tap = 0; tap < convKernel; tap++) {
    const fromEnd = convKernel - 1 - tap;
    const shifted = graph.op("Slice", [window, int64(1 + tap), int64(fromEnd === 0 ? end : -fromEnd), int64(2)]);
    const tapWeight = graph.op("Gather", [convWeight, graph.constant("int64", [tap], [])], { axis: 2 }); // [channels, 1]
    const term = graph.op("Mul", [shifted, tapWeight]);
    conv = tap === 0 ? term : graph.op("Add", [conv, term]);
  }
  const mixed = graph.op("Transpose", [silu(graph, conv)], { perm: [0, 2, 1] }); // [batch, seq, channels]

  const lastAxis = int64(2);
  const part = (from: number, to: number): string => graph.op("Slice", [mixed, int64(from), int64(to), lastAxis]);
  const headsOf = (x: string, heads: number, dim: number): string =>
    graph.op("Transpose", [graph.op("Reshape", [x, int64(0, 0, heads, dim)])], { perm: [0, 2, 1, 3] }); // [batch, heads, seq, dim]
  const l2Norm = (x: string): string =>
    graph.op("Div", [x, graph.op("Sqrt", [graph.op("Add", [graph.op("ReduceSum", [graph.op("Mul", [x, x]), int64(-1)], { keepdims: 1 }), float(1e-6)])])]);
  /** Key heads repeated to the value heads' count (Qwen3.5-4B has twice as many). */
  const toValueHeads = (x: string): string => {
    const repeat = valueHeads / keyHeads;
    if (repeat === 1) return x;
    const tiled = graph.op("Tile", [graph.op("Unsqueeze", [x, int64(2)]), int64(1, 1, repeat, 1, 1)]);
    return graph.op("Reshape", [tiled, int64(0, valueHeads, -1, keyDim)]);
  };
  const keyWidth = keyHeads * keyDim;
  const newMask = graph.op("Unsqueeze", [inputs.newTokenMask, int64(1, 3)]); // [batch, 1, seq, 1]
  const query = graph.op("Mul", [toValueHeads(l2Norm(headsOf(part(0, keyWidth), keyHeads, keyDim))), float(1 / Math.sqrt(keyDim))]);
  const key = graph.op("Mul", [toValueHeads(l2Norm(headsOf(part(keyWidth, 2 * keyWidth), keyHeads, keyDim))), newMask]);
  const beta = graph.op("Transpose", [graph.op("Unsqueeze", [graph.op("Sigmoid", [b]), int64(3)])], { perm: [0, 2, 1, 3] }); // [batch, heads, seq, 1]
  const value = graph.op("Mul", [headsOf(part(2 * keyWidth, channels), valueHeads, valueDim), beta]);

  // log g = -exp(A_log) * softplus(a + dt_bias), zero at padding: [batch, heads, seq].
  const aLog = graph.weight(`${prefix}.A_log`, "float32", [valueHeads], (target) => {
    // exp(A_log) in (0.02, 0.5): each token keeps 50-99% of the state, so
    // earlier tokens stay visible (the trained model's decays are its own).
    const values = new Float32Array(target.buffer, target.byteOffset, valueHeads);
    fillUniformFloat32(values, seedFromName(`${prefix}.A_log`, seed), 1);
    values.forEach((value, head) => (values[head] = Math.log(0.26 + 0.24 * Math.max(-1, Math.min(1, value / Math.sqrt(3))))));
  });
  const dtBias = onesWeight(graph, `${prefix}.dt_bias`, valueHeads);
  const softplus = graph.op("Log", [graph.op("Add", [graph.op("Exp", [graph.op("Add", [a, dtBias])]), float(1)])]);
  const logDecay = graph.op("Mul", [graph.op("Mul", [graph.op("Neg", [graph.op("Exp", [aLog])]), softplus]), graph.op("Unsqueeze", [inputs.newTokenMask, int64(2)])]);
  const cumulative = graph.op("CumSum", [graph.op("Transpose", [logDecay], { perm: [0, 2, 1] }), graph.constant("int64", [2], [])]); // [batch, heads, seq]
  const asColumn = graph.op("Unsqueeze", [cumulative, int64(3)]); // [batch, heads, seq, 1]
  const asRow = graph.op("Unsqueeze", [cumulative, int64(2)]); // [batch, heads, 1, seq]

  // Within the new tokens: (q_t . k_u) e^{G_t - G_u} for u <= t.
  const decay = graph.op("Exp", [graph.op("Where", [inputs.causal, graph.op("Sub", [asColumn, asRow]), float(MASKED)])]);
  const transposedKey = graph.op("Transpose", [key], { perm: [0, 1, 3, 2] }); // [batch, heads, dk, seq]
  const scores = graph.op("Mul", [graph.op("MatMul", [query, transposedKey]), decay]);
  const fromNew = graph.op("MatMul", [scores, value]); // [batch, heads, seq, dv]
  const fromPast = graph.op("Mul", [graph.op("MatMul", [query, inputs.pastRecurrent]), graph.op("Exp", [asColumn])]);
  const output = graph.op("Add", [fromNew, fromPast]);

  // The state after the last new token.
  const last = graph.op("Slice", [cumulative, int64(-1), int64(end), int64(2)]); // [batch, heads, 1]
  const keyWeights = graph.op("Unsqueeze", [graph.op("Exp", [graph.op("Sub", [last, cumulative])]), int64(3)]); // [batch, heads, seq, 1]
  const written = graph.op("MatMul", [graph.op("Transpose", [graph.op("Mul", [key, keyWeights])], { perm: [0, 1, 3, 2] }), value]); // [batch, heads, dk, dv]
  const kept = graph.op("Mul", [inputs.pastRecurrent, graph.op("Exp", [graph.op("Unsqueeze", [last, int64(3)])])]);
  graph.op("Add", [kept, written], {}, { output: `present_recurrent.${index}` });

  // Gated RMSNorm per head, then out_proj.
  const perHead = graph.op("Transpose", [output], { perm: [0, 2, 1, 3] }); // [batch, seq, heads, dv]
  const normedOutput = rmsNorm(graph, perHead, onesWeight(graph, `${prefix}.norm.weight`, valueDim), rmsNormEps);
  const gate = silu(graph, graph.op("Reshape", [z, int64(0, 0, valueHeads, valueDim)]));
  const merged = graph.op("Reshape", [graph.op("Mul", [normedOutput, gate]), int64(0, 0, valueHeads * valueDim)]);
  return graph.op("Add", [hidden, project(merged, "out_proj", valueHeads * valueDim, hiddenSize)]);
}
