import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import onnxProto from "onnx-proto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OnnxGraphBuilder } from "./onnx-graph-builder.js";
import { writeOnnxModel } from "./write-onnx-model.js";

const { onnx } = onnxProto;
let folder: string;

beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), "write-onnx-model-"));
});

afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** y = x @ W with W [4, 600] of 2400 floats (9,600 bytes, over the inline threshold) plus a small constant. */
function graphWithWeights() {
  const graph = new OnnxGraphBuilder("g");
  const x = graph.input("x", "float32", ["n", 4]);
  const weight = graph.weight("w", "float32", [4, 600], (target) => new Float32Array(target.buffer).fill(0.5));
  graph.op("Add", [graph.op("MatMul", [x, weight]), graph.constant("float32", [1], [])], {}, { output: "y" });
  graph.output("y", "float32", ["n", 600]);
  return graph.build();
}

describe("writeOnnxModel", () => {
  it("writes IR 8 with the graph's opsets, weights inline by default", () => {
    const path = join(folder, "inline", "model.onnx");
    const written = writeOnnxModel(graphWithWeights(), { path });
    expect(written).toEqual({ files: [path], weightBytes: 9604, externalData: false });
    const model = onnx.ModelProto.decode(readFileSync(path));
    expect(Number(model.irVersion)).toBe(8);
    expect(model.opsetImport.map((opset) => [opset.domain, Number(opset.version)])).toEqual([["", 17]]);
    const weight = model.graph!.initializer!.find((tensor) => tensor.name === "w")!;
    expect(weight.rawData!.length).toBe(9600);
    expect(weight.dims!.map(Number)).toEqual([4, 600]);
  });

  it("moves large weights to <file>_data at 4 KB-aligned offsets and keeps small ones inline", () => {
    const path = join(folder, "external", "model.onnx");
    const written = writeOnnxModel(graphWithWeights(), { path, externalData: true });
    expect(written.files).toEqual([path, `${path}_data`]);
    const model = onnx.ModelProto.decode(readFileSync(path));
    const weight = model.graph!.initializer!.find((tensor) => tensor.name === "w")!;
    expect(weight.dataLocation).toBe(onnx.TensorProto.DataLocation.EXTERNAL);
    const entries = Object.fromEntries(weight.externalData!.map((entry) => [entry.key, entry.value]));
    expect(entries).toEqual({ location: "model.onnx_data", offset: "0", length: "9600" });
    expect(Number(entries.offset) % 4096).toBe(0);
    expect(statSync(`${path}_data`).size).toBe(9600);
    const data = readFileSync(`${path}_data`);
    expect(new Float32Array(data.buffer, data.byteOffset, 2400).every((value) => value === 0.5)).toBe(true);
    const constant = model.graph!.initializer!.find((tensor) => tensor.name !== "w")!;
    expect(constant.rawData!.length).toBe(4);
  });
});
