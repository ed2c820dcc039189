import { onesWeight, rmsNorm, silu } from "./graph-primitives.js";
import { linearProjection, type WeightFormat } from "./linear-projection.js";
import type { OnnxGraphBuilder } from "./onnx-graph-builder.js";
import { addDeltaNetScan } from "./qwen35-deltanet-scan.js";
import { qwen35ConvChannels, type Qwen35Shape } from "./qwen35-shape.js";
import { fillUniformFloat32, seedFromName } from "./seeded-random.js";

/**
 * How a gated-DeltaNet block is written in ONNX:
 * - `"opt"`: as the hub's `-ONNX-OPT` exports are (the default): the
 *   `com.microsoft` `CausalConvWithState` (conv + SiLU, carrying the last
 *   `convKernel - 1` inputs) and `LinearAttention` (`update_rule:
 *   "gated_delta"`, the real block's rule) operators, no loop in the graph.
 *   ONNX Runtime added both for Qwen3.5 (microsoft/onnxruntime PR 27842 for
 *   the signature, 27996 for WebGPU); the -OPT 4B decoder has 24
 *   LinearAttention nodes and no `Scan` (transformers.js issue 1599).
 * - `"scan"`: as the hub's original exports are (`Qwen3.5-0.8B-Text-ONNX`,
 *   `-2B-ONNX`, `-4B-ONNX`): the conv in standard operators carrying
 *   `convKernel` inputs, the recurrence an ONNX `Scan` with one prompt
 *   position per iteration (`addDeltaNetScan`). Kept for the bench.
 * - `"closed-form"`: the project's earlier export, standard operators only:
 *   the conv as shifted slices carrying `convKernel` inputs, and the
 *   recurrence's closed form over the prompt (see `addQwen35LinearAttention`).
 *   Kept for the bench's comparison (bench/qwen35-prefill-layouts.ts).
 */
export type Qwen35DeltaNetLayout = "opt" | "scan" | "closed-form";

/** Columns of `past_conv.i` in `layout`: -OPT carries `convKernel - 1` inputs (what the kernel needs), the closed form `convKernel`. */
export function qwen35ConvStateLength(shape: Qwen35Shape, layout: Qwen35DeltaNetLayout): number {
  return layout === "opt" ? shape.convKernel - 1 : shape.convKernel;
}

/** What a Qwen3.5 linear-attention block reads besides its own weights. */
export interface Qwen35LinearAttentionInputs {
  index: number;
  shape: Qwen35Shape;
  format: WeightFormat;
  seed: number;
  /** The residual stream [batch, seq, hidden]. */
  hidden: string;
  /** How the block is written (default `"opt"`). */
  layout?: Qwen35DeltaNetLayout;
  /** `past_conv.{index}` [batch, convChannels, qwen35ConvStateLength]: the conv's input at the last positions. */
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

/** A Slice end past any axis: "to the end". */
const END = 2 ** 62;

/**
 * Qwen3.5's Gated DeltaNet block, with its weights, its states and its
 * per-token cost:
 *
 * 1. `in_proj_qkv` (hidden -> q, k, v), `in_proj_z` (the output gate),
 *    `in_proj_b` and `in_proj_a` (per value head: write strength and decay);
 * 2. a depthwise causal conv (kernel `convKernel`) over q, k, v, continuing
 *    from `past_conv.i` (the last inputs; the new last ones become
 *    `present_conv.i`), then SiLU;
 * 3. L2-normed q and k, q scaled by 1/sqrt(dk); per head and token a decay
 *    `g = exp(-exp(A_log) * softplus(a + dt_bias))` and `beta = sigmoid(b)`;
 * 4. the recurrence from `past_recurrent.i` to `present_recurrent.i`
 *    ([batch, valueHeads, dk, dv]), readout `o_t = q_t S_t`;
 * 5. a gated RMSNorm (`rmsnorm(o) * silu(z)`, per head) and `out_proj`.
 *
 * Step 4 by layout: `"opt"` runs the real delta rule
 * (`S_t = g_t S_{t-1} + beta_t k_t^T (v_t - g_t S_{t-1}^T k_t)`) in one
 * `LinearAttention` node, `"scan"` the same rule one position per `Scan`
 * iteration. `"closed-form"` runs the simpler
 * `S_t = g_t S_{t-1} + k_t^T (beta_t v_t)` (one [dk] x [dk, dv] product per
 * head and token less, about 1% of a token's work at the 0.8B's shapes)
 * in parallel over the new tokens, with G = cumsum(log g):
 * `o_t = e^{G_t} q_t S_0 + sum_{u<=t} e^{G_t - G_u} (q_t . k_u) v_u` and
 * `S_T = e^{G_T} S_0 + sum_u e^{G_T - G_u} k_u^T v_u`: exact for that rule,
 * no loop, at O(seq^2) memory per head for a prompt (a [heads, seq, seq]
 * decay matrix: 16 x 2,000 x 2,000 floats = 256 MB at the 0.8B's shapes).
 * In both, padding tokens (mask 0) neither write nor decay the state.
 * Returns the residual stream after the block (no MLP).
 */
export function addQwen35LinearAttention(graph: OnnxGraphBuilder, inputs: Qwen35LinearAttentionInputs): string {
  const { index, shape, format, seed, hidden, layout = "opt" } = inputs;
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

  const normed = rmsNorm(graph, hidden, onesWeight(graph, `model.layers.${index}.input_layernorm.weight`, hiddenSize), rmsNormEps);
  const qkv = project(normed, "in_proj_qkv", hiddenSize, channels); // [batch, seq, channels]
  const z = project(normed, "in_proj_z", hiddenSize, valueHeads * valueDim);
  const b = project(normed, "in_proj_b", hiddenSize, valueHeads); // [batch, seq, valueHeads]
  const a = project(normed, "in_proj_a", hiddenSize, valueHeads);
  const convWeight = graph.weight(`${prefix}.conv1d.weight`, "float32", [channels, 1, convKernel], (target) =>
    fillUniformFloat32(new Float32Array(target.buffer, target.byteOffset, target.byteLength / 4), seedFromName(`${prefix}.conv1d.weight`, seed), 1 / Math.sqrt(convKernel)),
  );
  // log g = -exp(A_log) * softplus(a + dt_bias), zero at padding: [batch, seq, heads].
  const aLog = graph.weight(`${prefix}.A_log`, "float32", [valueHeads], (target) => {
    // exp(A_log) in (0.02, 0.5): each token keeps 50-99% of the state, so
    // earlier tokens stay visible (the trained model's decays are its own).
    const values = new Float32Array(target.buffer, target.byteOffset, valueHeads);
    fillUniformFloat32(values, seedFromName(`${prefix}.A_log`, seed), 1);
    values.forEach((value, head) => (values[head] = Math.log(0.26 + 0.24 * Math.max(-1, Math.min(1, value / Math.sqrt(3))))));
  });
  const dtBias = onesWeight(graph, `${prefix}.dt_bias`, valueHeads);
  const softplus = graph.op("Log", [graph.op("Add", [graph.op("Exp", [graph.op("Add", [a, dtBias])]), float(1)])]);
  const tokenMask = graph.op("Unsqueeze", [inputs.newTokenMask, int64(2)]); // [batch, seq, 1]
  const logDecay = graph.op("Mul", [graph.op("Mul", [graph.op("Neg", [graph.op("Exp", [aLog])]), softplus]), tokenMask]);
  const beta = graph.op("Mul", [graph.op("Sigmoid", [b]), tokenMask]); // [batch, seq, heads]: padding writes nothing

  const recurrence = { opt: optRecurrence, scan: scanRecurrence, "closed-form": closedFormRecurrence }[layout];
  const perHead = recurrence(graph, { ...inputs, qkv, convWeight, logDecay, beta });

  // Gated RMSNorm per head, then out_proj.
  const normedOutput = rmsNorm(graph, perHead, onesWeight(graph, `${prefix}.norm.weight`, valueDim), rmsNormEps);
  const gate = silu(graph, graph.op("Reshape", [z, int64(0, 0, valueHeads, valueDim)]));
  const merged = graph.op("Reshape", [graph.op("Mul", [normedOutput, gate]), int64(0, 0, valueHeads * valueDim)]);
  return graph.op("Add", [hidden, project(merged, "out_proj", valueHeads * valueDim, hiddenSize)]);
}

/** What steps 2-4 read: the block's inputs and the projections both layouts share. */
interface RecurrenceInputs extends Qwen35LinearAttentionInputs {
  /** [batch, seq, convChannels]: q, k, v before the conv. */
  qkv: string;
  /** [convChannels, 1, convKernel]. */
  convWeight: string;
  /** log g, [batch, seq, valueHeads], 0 at padding. */
  logDecay: string;
  /** sigmoid(b), [batch, seq, valueHeads], 0 at padding. */
  beta: string;
}

/** L2 norm over the last axis. */
function l2Norm(graph: OnnxGraphBuilder, x: string): string {
  const sumOfSquares = graph.op("ReduceSum", [graph.op("Mul", [x, x]), graph.constant("int64", [-1])], { keepdims: 1 });
  return graph.op("Div", [x, graph.op("Sqrt", [graph.op("Add", [sumOfSquares, graph.constant("float32", [1e-6], [])])])]);
}

/** Steps 2-4 as -OPT writes them: `CausalConvWithState`, then `LinearAttention`. Returns the readout [batch, seq, valueHeads, dv]. */
function optRecurrence(graph: OnnxGraphBuilder, inputs: RecurrenceInputs): string {
  const { index, shape } = inputs;
  const keyHeads = shape.linearKeyHeads;
  const valueHeads = shape.linearValueHeads;
  const keyDim = shape.linearKeyHeadDim;
  const channels = qwen35ConvChannels(shape);
  const int64 = (...values: number[]): string => graph.constant("int64", values);
  graph.useDomain("com.microsoft", 1);
  const microsoft = { domain: "com.microsoft" };

  const [conv, convState] = graph.ops(
    "CausalConvWithState",
    [graph.op("Transpose", [inputs.qkv], { perm: [0, 2, 1] }), inputs.convWeight, "", inputs.pastConv],
    2,
    { activation: "silu", ndim: 1 },
    microsoft,
  ) as [string, string];
  graph.op("Identity", [convState], {}, { output: `present_conv.${index}` });
  const mixed = graph.op("Transpose", [conv], { perm: [0, 2, 1] }); // [batch, seq, channels]

  const keyWidth = keyHeads * keyDim;
  const part = (from: number, to: number): string => graph.op("Slice", [mixed, int64(from), int64(to), int64(2)]);
  /** [batch, seq, keyHeads * dk] -> L2-normed per head, each key head repeated for its value heads (Qwen3.5-4B has twice as many): [batch, seq, valueHeads * dk]. */
  const keyLike = (x: string): string => {
    const normed = l2Norm(graph, graph.op("Reshape", [x, int64(0, 0, keyHeads, keyDim)]));
    const repeat = valueHeads / keyHeads;
    const tiled = repeat === 1 ? normed : graph.op("Tile", [graph.op("Unsqueeze", [normed, int64(3)]), int64(1, 1, 1, repeat, 1)]);
    return graph.op("Reshape", [tiled, int64(0, 0, valueHeads * keyDim)]);
  };
  const [output, state] = graph.ops(
    "LinearAttention",
    [keyLike(part(0, keyWidth)), keyLike(part(keyWidth, 2 * keyWidth)), part(2 * keyWidth, channels), inputs.pastRecurrent, inputs.logDecay, inputs.beta],
    2,
    { q_num_heads: valueHeads, kv_num_heads: valueHeads, update_rule: "gated_delta", scale: { float: 1 / Math.sqrt(keyDim) } },
    microsoft,
  ) as [string, string];
  graph.op("Identity", [state], {}, { output: `present_recurrent.${index}` });
  return graph.op("Reshape", [output, int64(0, 0, valueHeads, shape.linearValueHeadDim)]);
}

/** Step 2 in standard operators: the conv as shifted slices over [past `convKernel` inputs | new], then SiLU. Returns [batch, seq, channels]. */
function shiftedSliceConv(graph: OnnxGraphBuilder, inputs: RecurrenceInputs): string {
  const { convKernel } = inputs.shape;
  const int64 = (...values: number[]): string => graph.constant("int64", values);
  // Output s (0-based among the new) reads window positions s + 1 .. s + kernel.
  const window = graph.op("Concat", [inputs.pastConv, graph.op("Transpose", [inputs.qkv], { perm: [0, 2, 1] })], { axis: 2 }); // [batch, channels, kernel + seq]
  graph.op("Slice", [window, int64(-convKernel), int64(END), int64(2)], {}, { output: `present_conv.${inputs.index}` });
  let conv = "";
  for (let tap = 0; tap < convKernel; tap++) {
    const fromEnd = convKernel - 1 - tap;
    const shifted = graph.op("Slice", [window, int64(1 + tap), int64(fromEnd === 0 ? END : -fromEnd), int64(2)]);
    const tapWeight = graph.op("Gather", [inputs.convWeight, graph.constant("int64", [tap], [])], { axis: 2 }); // [channels, 1]
    const term = graph.op("Mul", [shifted, tapWeight]);
    conv = tap === 0 ? term : graph.op("Add", [conv, term]);
  }
  return graph.op("Transpose", [silu(graph, conv)], { perm: [0, 2, 1] });
}

/** q (L2-normed, scaled by 1/sqrt(dk)), k (L2-normed, 0 at padding) and v per value head, [batch, heads, seq, dim], from the conv's output. */
function headTensors(graph: OnnxGraphBuilder, inputs: RecurrenceInputs, mixed: string): { query: string; key: string; value: string } {
  const { shape } = inputs;
  const keyHeads = shape.linearKeyHeads;
  const valueHeads = shape.linearValueHeads;
  const keyDim = shape.linearKeyHeadDim;
  const int64 = (...values: number[]): string => graph.constant("int64", values);
  const part = (from: number, to: number): string => graph.op("Slice", [mixed, int64(from), int64(to), int64(2)]);
  const headsOf = (x: string, heads: number, dim: number): string =>
    graph.op("Transpose", [graph.op("Reshape", [x, int64(0, 0, heads, dim)])], { perm: [0, 2, 1, 3] }); // [batch, heads, seq, dim]
  /** Key heads repeated to the value heads' count (Qwen3.5-4B has twice as many). */
  const toValueHeads = (x: string): string => {
    const repeat = valueHeads / keyHeads;
    if (repeat === 1) return x;
    const tiled = graph.op("Tile", [graph.op("Unsqueeze", [x, int64(2)]), int64(1, 1, repeat, 1, 1)]);
    return graph.op("Reshape", [tiled, int64(0, valueHeads, -1, keyDim)]);
  };
  const keyWidth = keyHeads * keyDim;
  const newMask = graph.op("Unsqueeze", [inputs.newTokenMask, int64(1, 3)]); // [batch, 1, seq, 1]
  return {
    query: graph.op("Mul", [toValueHeads(l2Norm(graph, headsOf(part(0, keyWidth), keyHeads, keyDim))), graph.constant("float32", [1 / Math.sqrt(keyDim)], [])]),
    key: graph.op("Mul", [toValueHeads(l2Norm(graph, headsOf(part(keyWidth, 2 * keyWidth), keyHeads, keyDim))), newMask]),
    value: headsOf(part(2 * keyWidth, qwen35ConvChannels(shape)), valueHeads, shape.linearValueHeadDim),
  };
}

/** Steps 2-4 as the hub's pre-OPT exports write them: the conv in standard operators, the recurrence a `Scan` over positions. Returns [batch, seq, valueHeads, dv]. */
function scanRecurrence(graph: OnnxGraphBuilder, inputs: RecurrenceInputs): string {
  const { query, key, value } = headTensors(graph, inputs, shiftedSliceConv(graph, inputs));
  const headsFirst = (x: string): string => graph.op("Transpose", [x], { perm: [0, 2, 1] }); // [batch, seq, heads] -> [batch, heads, seq]
  const output = addDeltaNetScan(graph, {
    index: inputs.index,
    query,
    key,
    value,
    logDecay: headsFirst(inputs.logDecay),
    beta: headsFirst(inputs.beta),
    pastState: inputs.pastRecurrent,
    presentState: `present_recurrent.${inputs.index}`,
  });
  return graph.op("Transpose", [output], { perm: [0, 2, 1, 3] });
}

/** Steps 2-4 in standard operators: the conv as shifted slices, the recurrence's closed form. Returns [batch, seq, valueHeads, dv]. */
function closedFormRecurrence(graph: OnnxGraphBuilder, inputs: RecurrenceInputs): string {
  const { index } = inputs;
  const int64 = (...values: number[]): string => graph.constant("int64", values);
  const float = (value: number): string => graph.constant("float32", [value], []);
  const { query, key, value: rawValue } = headTensors(graph, inputs, shiftedSliceConv(graph, inputs));
  const beta = graph.op("Unsqueeze", [graph.op("Transpose", [inputs.beta], { perm: [0, 2, 1] }), int64(3)]); // [batch, heads, seq, 1]
  const value = graph.op("Mul", [rawValue, beta]);

  const cumulative = graph.op("CumSum", [graph.op("Transpose", [inputs.logDecay], { perm: [0, 2, 1] }), graph.constant("int64", [2], [])]); // [batch, heads, seq]
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
  const last = graph.op("Slice", [cumulative, int64(-1), int64(END), int64(2)]); // [batch, heads, 1]
  const keyWeights = graph.op("Unsqueeze", [graph.op("Exp", [graph.op("Sub", [last, cumulative])]), int64(3)]); // [batch, heads, seq, 1]
  const written = graph.op("MatMul", [graph.op("Transpose", [graph.op("Mul", [key, keyWeights])], { perm: [0, 1, 3, 2] }), value]); // [batch, heads, dk, dv]
  const kept = graph.op("Mul", [inputs.pastRecurrent, graph.op("Exp", [graph.op("Unsqueeze", [last, int64(3)])])]);
  graph.op("Add", [kept, written], {}, { output: `present_recurrent.${index}` });
  return graph.op("Transpose", [output], { perm: [0, 2, 1, 3] }); // [batch, seq, heads, dv]
}
