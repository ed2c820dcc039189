import { closeSync, mkdirSync, openSync, writeFileSync, writeSync } from "node:fs";
import { basename, dirname } from "node:path";
import onnxProto from "onnx-proto";
import type { onnx } from "onnx-proto";
import { ELEMENT_TYPE_CODES, type OnnxGraph, type WeightDeclaration } from "./onnx-graph-builder.js";

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
  /**
   * With external data: which data file each external weight goes to, 0 for
   * `<file>_data`, n for `<file>_data_n` (transformers.js's chunk names),
   * so a model can be laid out as the hub's exports are (e.g. the decoder's
   * layers in `_data` and its LM head in `_data_1`). Default: all in `_data`.
   * Every chunk from 0 to the highest index used is written.
   */
  externalDataChunk?: (weight: WeightDeclaration) => number;
}

/** What `writeOnnxModel` wrote. */
export interface WrittenOnnxModel {
  /** Absolute or caller-relative paths of the files written: the model, then its data files (`_data`, `_data_1`, ...) if any. */
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

  // One open data file per chunk, created in index order so none is skipped.
  const chunks: { path: string; location: string; descriptor: number; offset: number }[] = [];
  const openChunk = (index: number): (typeof chunks)[number] => {
    while (chunks.length <= index) {
      const path = `${options.path}_data${chunks.length === 0 ? "" : `_${chunks.length}`}`;
      chunks.push({ path, location: basename(path), descriptor: openSync(path, "w"), offset: 0 });
    }
    return chunks[index]!;
  };
  const initializers: onnx.ITensorProto[] = [];
  try {
    if (externalData) openChunk(0);
    for (const weight of graph.weights) {
      const bytes = new Uint8Array(weight.byteLength);
      weight.fill(bytes);
      const tensor: onnx.ITensorProto = {
        name: weight.name,
        dims: [...weight.dims],
        dataType: ELEMENT_TYPE_CODES[weight.type],
      };
      if (externalData && weight.byteLength > EXTERNAL_THRESHOLD_BYTES) {
        const chunk = openChunk(options.externalDataChunk?.(weight) ?? 0);
        const padding = (EXTERNAL_ALIGNMENT - (chunk.offset % EXTERNAL_ALIGNMENT)) % EXTERNAL_ALIGNMENT;
        if (padding > 0) writeAll(chunk.descriptor, new Uint8Array(padding));
        chunk.offset += padding;
        writeAll(chunk.descriptor, bytes);
        tensor.dataLocation = onnxMessages.TensorProto.DataLocation.EXTERNAL;
        tensor.externalData = [
          { key: "location", value: chunk.location },
          { key: "offset", value: String(chunk.offset) },
          { key: "length", value: String(weight.byteLength) },
        ];
        chunk.offset += weight.byteLength;
      } else {
        tensor.rawData = bytes;
      }
      initializers.push(tensor);
    }
  } finally {
    for (const chunk of chunks) closeSync(chunk.descriptor);
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
  return { files: [options.path, ...chunks.map((chunk) => chunk.path)], weightBytes, externalData };
}
