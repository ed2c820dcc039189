import { closeSync, mkdirSync, openSync, writeFileSync, writeSync } from "node:fs";
import { basename, dirname } from "node:path";
import onnxProto from "onnx-proto";
import type { onnx } from "onnx-proto";
import { ELEMENT_TYPE_CODES, type OnnxGraph } from "./onnx-graph-builder.js";

// onnx-proto is CommonJS: Node's ESM loader only gives it a default export.
const { onnx: onnxMessages } = onnxProto;

/** ONNX IR version 8 (onnx 1.10): what ONNX Runtime 1.14+ reads, Node and Web alike. */
export const IR_VERSION = 8;

/**
 * A protobuf message cannot exceed 2 GiB, so weights past this many bytes
 * (with room for the graph itself) must go to an external data file.
 */
export const INLINE_WEIGHT_LIMIT_BYTES = 2_000_000_000;

/** Weights up to this size stay in the `.onnx` file even with external data (onnx's own default). */
const EXTERNAL_THRESHOLD_BYTES = 1024;

/** Tensors in the external data file start on this boundary, so a runtime may memory-map them. */
const EXTERNAL_ALIGNMENT = 4096;

/** Options for `writeOnnxModel`. */
export interface WriteOnnxModelOptions {
  /** The model file, e.g. `<folder>/onnx/model.onnx`; its folder is created. */
  path: string;
  /**
   * Put weights in `<file>_data` beside the model (`model.onnx_data`, the name
   * transformers.js asks for). `"auto"` (default) does so only when they
   * exceed `INLINE_WEIGHT_LIMIT_BYTES`.
   */
  externalData?: boolean | "auto";
  /** Recorded as the model's producer (default `"@webmcp-agents/chat test-models"`). */
  producerName?: string;
}

/** What `writeOnnxModel` wrote. */
export interface WrittenOnnxModel {
  /** Absolute or caller-relative paths of the files written: the model, then its data file if any. */
  files: string[];
  /** Sum of all weight bytes. */
  weightBytes: number;
  externalData: boolean;
}

/** Total bytes of a graph's weights. */
export function totalWeightBytes(graph: OnnxGraph): number {
  return graph.weights.reduce((sum, weight) => sum + weight.byteLength, 0);
}

function writeAll(descriptor: number, bytes: Uint8Array): void {
  let written = 0;
  while (written < bytes.length) written += writeSync(descriptor, bytes, written, bytes.length - written);
}

/**
 * Materializes a graph's weights (one tensor at a time) and writes the model
 * as protobuf, IR 8, with the graph's opset imports.
 */
export function writeOnnxModel(graph: OnnxGraph, options: WriteOnnxModelOptions): WrittenOnnxModel {
  const weightBytes = totalWeightBytes(graph);
  const externalData =
    options.externalData === "auto" || options.externalData === undefined
      ? weightBytes > INLINE_WEIGHT_LIMIT_BYTES
      : options.externalData;
  mkdirSync(dirname(options.path), { recursive: true });

  const dataPath = `${options.path}_data`;
  const dataLocation = basename(dataPath);
  const descriptor = externalData ? openSync(dataPath, "w") : undefined;
  const initializers: onnx.ITensorProto[] = [];
  let offset = 0;
  try {
    for (const weight of graph.weights) {
      const bytes = new Uint8Array(weight.byteLength);
      weight.fill(bytes);
      const tensor: onnx.ITensorProto = {
        name: weight.name,
        dims: [...weight.dims],
        dataType: ELEMENT_TYPE_CODES[weight.type],
      };
      if (descriptor !== undefined && weight.byteLength > EXTERNAL_THRESHOLD_BYTES) {
        const padding = (EXTERNAL_ALIGNMENT - (offset % EXTERNAL_ALIGNMENT)) % EXTERNAL_ALIGNMENT;
        if (padding > 0) writeAll(descriptor, new Uint8Array(padding));
        offset += padding;
        writeAll(descriptor, bytes);
        tensor.dataLocation = onnxMessages.TensorProto.DataLocation.EXTERNAL;
        tensor.externalData = [
          { key: "location", value: dataLocation },
          { key: "offset", value: String(offset) },
          { key: "length", value: String(weight.byteLength) },
        ];
        offset += weight.byteLength;
      } else {
        tensor.rawData = bytes;
      }
      initializers.push(tensor);
    }
  } finally {
    if (descriptor !== undefined) closeSync(descriptor);
  }

  const model: onnx.IModelProto = {
    irVersion: IR_VERSION,
    producerName: options.producerName ?? "@webmcp-agents/chat test-models",
    opsetImport: graph.opsetImports,
    graph: {
      name: graph.name,
      node: graph.nodes,
      input: graph.inputs,
      output: graph.outputs,
      initializer: initializers,
    },
  };
  writeFileSync(options.path, onnxMessages.ModelProto.encode(model).finish());
  return { files: externalData ? [options.path, dataPath] : [options.path], weightBytes, externalData };
}
