import { describe, expect, it } from "vitest";
import { OnnxGraphBuilder } from "./onnx-graph-builder.js";

describe("OnnxGraphBuilder", () => {
  it("records inputs with named and fixed dims, nodes, and outputs", () => {
    const graph = new OnnxGraphBuilder("g");
    const x = graph.input("x", "float32", ["batch_size", 4]);
    graph.op("Relu", [x], {}, { output: "y" });
    graph.output("y", "float32", ["batch_size", 4]);
    const built = graph.build();
    expect(built.inputs[0]).toEqual({
      name: "x",
      type: { tensorType: { elemType: 1, shape: { dim: [{ dimParam: "batch_size" }, { dimValue: 4 }] } } },
    });
    expect(built.nodes).toEqual([expect.objectContaining({ opType: "Relu", input: ["x"], output: ["y"], domain: "" })]);
    expect(built.outputs.map((output) => output.name)).toEqual(["y"]);
    expect(built.opsetImports).toEqual([{ domain: "", version: 17 }]);
  });

  it("infers attribute types: whole numbers INT, others FLOAT, arrays INTS, wrapped floats", () => {
    const graph = new OnnxGraphBuilder("g");
    const x = graph.input("x", "float32", [2]);
    graph.op("Op", [x], { axis: -1, epsilon: 1e-6, perm: [1, 0], alpha: { float: 1 }, mode: "constant", scales: { floats: [0.5] } });
    expect(graph.build().nodes[0]!.attribute).toEqual([
      { name: "axis", type: 2, i: -1 },
      { name: "epsilon", type: 1, f: 1e-6 },
      { name: "perm", type: 7, ints: [1, 0] },
      { name: "alpha", type: 1, f: 1 },
      { name: "mode", type: 3, s: new TextEncoder().encode("constant") },
      { name: "scales", type: 6, floats: [0.5] },
    ]);
  });

  it("deduplicates constants by type, shape and value", () => {
    const graph = new OnnxGraphBuilder("g");
    expect(graph.constant("int64", [1])).toBe(graph.constant("int64", [1]));
    expect(graph.constant("int64", [1], [])).not.toBe(graph.constant("int64", [1]));
    expect(graph.constant("float32", [1])).not.toBe(graph.constant("int64", [1]));
    const weights = graph.build().weights;
    expect(weights).toHaveLength(3);
    const bytes = new Uint8Array(weights[0]!.byteLength);
    weights[0]!.fill(bytes);
    expect(new BigInt64Array(bytes.buffer)).toEqual(BigInt64Array.of(1n));
  });

  it("refuses reused names, unknown inputs, unproduced outputs and unregistered domains", () => {
    const graph = new OnnxGraphBuilder("g");
    const x = graph.input("x", "float32", [1]);
    expect(() => graph.input("x", "float32", [1])).toThrow('"x" is used twice');
    expect(() => graph.op("Relu", ["nope"])).toThrow('unknown input "nope"');
    expect(() => graph.output("z", "float32", [1])).toThrow('"z" is not produced');
    expect(() => graph.op("MatMulNBits", [x], {}, { domain: "com.microsoft" })).toThrow("not registered");
    graph.useDomain("com.microsoft", 1);
    graph.op("MatMulNBits", [x, ""], {}, { domain: "com.microsoft" });
    expect(graph.build().opsetImports).toContainEqual({ domain: "com.microsoft", version: 1 });
  });
});
