import type { OnnxGraph, WeightDeclaration } from "./onnx-graph-builder.js";
import type { Qwen35Shape } from "./qwen35-shape.js";
import type { Qwen3Shape } from "./qwen3-shape.js";
import type { Qwen3TokenizerFiles, TokenEncoder } from "./qwen3-tokenizer.js";
import { DTYPE_FILE_NAMES } from "../dtype-file-names.js";

export { DTYPE_FILE_NAMES };

/** A transformers.js `dtype` a test model is built for. */
export type TestModelDtype = keyof typeof DTYPE_FILE_NAMES;

/**
 * A model laid out as several ONNX files, as the hub's multimodal exports
 * are (`onnx/embed_tokens_<suffix>.onnx` + `onnx/decoder_model_merged_<suffix>.onnx`,
 * weights in `_data`, `_data_1`, ... chunks), with the config.json that
 * makes transformers.js load it that way.
 */
export interface TestModelExport {
  /** config.json as written. */
  config: Record<string, unknown>;
  files: {
    /** Relative to the model folder, e.g. `onnx/embed_tokens_quantized.onnx`. */
    path: string;
    graph: OnnxGraph;
    /** The data chunk each external weight goes to (see `writeOnnxModel`); every weight over 1 KB is external. */
    externalDataChunk?: (weight: WeightDeclaration) => number;
  }[];
}

/**
 * A model the project builds for its own tests and benchmarks: everything
 * `writeTestModel` needs to write a transformers.js-loadable folder.
 */
export interface TestModelDefinition {
  /** Folder name under the models root, e.g. `tiny`. */
  id: string;
  /** The dtype to pass transformers.js; decides the ONNX file's name. */
  dtype: TestModelDtype;
  /** One sentence: what the model is for. */
  description: string;
  /**
   * The dimensions config.json declares: a `Qwen3Shape` writes a `qwen3`
   * config, a `Qwen35Shape` (it has `layerTypes`) a `qwen3_5_text` one.
   */
  shape: Qwen3Shape | Qwen35Shape;
  /** The options it was made with, as JSON: part of the build stamp, so changing them rebuilds. */
  options: unknown;
  /** Approximate size of the built folder in bytes (the CLI prints it before a long build). */
  approximateBytes: number;
  /**
   * The tokenizer files the folder gets, from Qwen3's (default: as they are).
   * The Qwen3.5-format models put Qwen3.5's chat template in them.
   */
  tokenizerFiles?(files: Qwen3TokenizerFiles): Qwen3TokenizerFiles;
  /** Builds the graph; `tokenizer` is there for models that must know token ids (it reads the files `tokenizerFiles` returns). */
  createGraph(tokenizer: () => Promise<TokenEncoder>): Promise<OnnxGraph> | OnnxGraph;
  /**
   * Several ONNX files instead of one: when present, `writeTestModel`
   * writes these and their config.json in place of `createGraph`'s graph
   * as `onnx/<DTYPE_FILE_NAMES[dtype]>` (`createGraph` then gives the main
   * graph, for inspection).
   */
  createExport?(): TestModelExport;
}
