import type { onnx } from "onnx-proto";
import type { OnnxGraphBuilder } from "./onnx-graph-builder.js";

/** What `addDeltaNetScan` reads, each [batch, heads, seq, ...] with heads = the value heads. */
export interface DeltaNetScanInputs {
  /** Layer index, for unique names. */
  index: number;
  /** L2-normed, scaled queries [batch, heads, seq, dk]. */
  query: string;
  /** L2-normed keys [batch, heads, seq, dk]. */
  key: string;
  /** [batch, heads, seq, dv]. */
  value: string;
  /** log g [batch, heads, seq], 0 at padding. */
  logDecay: string;
  /** beta [batch, heads, seq], 0 at padding. */
  beta: string;
  /** The state before the new tokens [batch, heads, dk, dv]. */
  pastState: string;
  /** The name the state after the last new token gets. */
  presentState: string;
}

const FLOAT = 1;

/**
 * The gated delta rule as the hub's pre-OPT Qwen3.5 exports compute it: an
 * ONNX `Scan` whose body runs one prompt position per iteration,
 * `S_t = g_t S_{t-1} + beta_t k_t^T (v_t - g_t S_{t-1}^T k_t)`, `o_t = q_t S_t`.
 * Those exports run each gated-DeltaNet layer this way (the old 4B decoder
 * has 24 `Scan` nodes; transformers.js issue 1599), so prefill costs one
 * loop iteration per prompt token and layer. Returns the readouts
 * [batch, heads, seq, dv]. The body reads the outer graph's constants by
 * name, as ONNX lets a subgraph do.
 */
export function addDeltaNetScan(graph: OnnxGraphBuilder, inputs: DeltaNetScanInputs): string {
  const axis = (...values: number[]): string => graph.constant("int64", values);
  const [two, three, twoThree] = [axis(2), axis(3), axis(2, 3)];
  const name = (suffix: string) => `deltanet_scan_${inputs.index}_${suffix}`;
  const node = (opType: string, input: string[], output: string): onnx.INodeProto => ({ name: name(`${opType}_${output}`), opType, domain: "", input, output: [name(output)] });
  const local = (suffix: string) => name(suffix);
  const tensor = (suffix: string): onnx.IValueInfoProto => ({ name: name(suffix), type: { tensorType: { elemType: FLOAT } } });
  // One position: state [B, H, dk, dv]; q, k [B, H, dk]; v [B, H, dv]; g, beta [B, H].
  const body: onnx.IGraphProto = {
    name: name("step"),
    input: ["state", "q", "k", "v", "g", "beta"].map(tensor),
    output: ["next_state", "o"].map(tensor),
    node: [
      node("Exp", [local("g")], "decay"),
      node("Unsqueeze", [local("decay"), twoThree], "decay4"),
      node("Mul", [local("state"), local("decay4")], "decayed"),
      node("Unsqueeze", [local("k"), two], "k_row"),
      node("MatMul", [local("k_row"), local("decayed")], "recalled"),
      node("Unsqueeze", [local("v"), two], "v_row"),
      node("Sub", [local("v_row"), local("recalled")], "error"),
      node("Unsqueeze", [local("beta"), twoThree], "beta4"),
      node("Mul", [local("error"), local("beta4")], "delta"),
      node("Unsqueeze", [local("k"), three], "k_column"),
      node("MatMul", [local("k_column"), local("delta")], "written"),
      node("Add", [local("decayed"), local("written")], "next_state"),
      node("Unsqueeze", [local("q"), two], "q_row"),
      node("MatMul", [local("q_row"), local("next_state")], "o_row"),
      node("Squeeze", [local("o_row"), two], "o"),
    ],
  };
  const [state, output] = graph.ops("Scan", [inputs.pastState, inputs.query, inputs.key, inputs.value, inputs.logDecay, inputs.beta], 2, {
    body: { graph: body },
    num_scan_inputs: 5,
    scan_input_axes: [2, 2, 2, 2, 2],
    scan_output_axes: [2],
  }) as [string, string];
  graph.op("Identity", [state], {}, { output: inputs.presentState });
  return output;
}
