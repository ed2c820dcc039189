import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { qwen35ConfigJson } from "./qwen35-config-files.js";
import { qwen3ConfigJson, qwen3GenerationConfigJson } from "./qwen3-config-files.js";
import { createQwen3Tokenizer, type Qwen3TokenizerFiles, type TokenEncoder } from "./qwen3-tokenizer.js";
import { DTYPE_FILE_NAMES, type TestModelDefinition } from "./test-model-definition.js";
import { describeFiles, MANIFEST_FILE, type TestModelManifest } from "./test-model-manifest.js";
import { INLINE_WEIGHT_LIMIT_BYTES, totalWeightBytes, writeOnnxModel } from "./write-onnx-model.js";

/** Options for `writeTestModel`. */
export interface WriteTestModelOptions {
  tokenizerFiles: Qwen3TokenizerFiles;
  /** Recorded in the manifest (see `testModelStamp`). */
  stamp: string;
  /** Override where weights go (default: external data only past the protobuf limit). */
  externalData?: boolean;
}

/**
 * Writes a transformers.js model folder from scratch (whatever was there is
 * removed first): `config.json`, `generation_config.json`, `tokenizer.json`,
 * `tokenizer_config.json` (and `chat_template.jinja` when the tokenizer files
 * carry one), `onnx/<dtype file>` (+ `_data`), and last
 * `manifest.json`, so a folder without a manifest is an interrupted build.
 */
export async function writeTestModel(folder: string, definition: TestModelDefinition, options: WriteTestModelOptions): Promise<TestModelManifest> {
  const tokenizerFiles = definition.tokenizerFiles?.(options.tokenizerFiles) ?? options.tokenizerFiles;
  let tokenizer: Promise<TokenEncoder> | undefined;
  const exported = definition.createExport?.();
  const graph = exported ? undefined : await definition.createGraph(() => (tokenizer ??= createQwen3Tokenizer(tokenizerFiles)));
  const onnxFile = DTYPE_FILE_NAMES[definition.dtype];
  const externalData = options.externalData ?? (graph !== undefined && totalWeightBytes(graph) > INLINE_WEIGHT_LIMIT_BYTES);

  rmSync(folder, { recursive: true, force: true });
  mkdirSync(folder, { recursive: true });
  const json = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;
  const configOptions = { externalDataFiles: externalData ? [onnxFile] : [] };
  const shape = definition.shape;
  const config = exported?.config ?? ("layerTypes" in shape ? qwen35ConfigJson(shape, configOptions) : qwen3ConfigJson(shape, configOptions));
  writeFileSync(join(folder, "config.json"), json(config));
  writeFileSync(join(folder, "generation_config.json"), json(qwen3GenerationConfigJson()));
  writeFileSync(join(folder, "tokenizer.json"), tokenizerFiles.tokenizerJson);
  writeFileSync(join(folder, "tokenizer_config.json"), tokenizerFiles.tokenizerConfigJson);
  if (tokenizerFiles.chatTemplateJinja !== undefined) writeFileSync(join(folder, "chat_template.jinja"), tokenizerFiles.chatTemplateJinja);
  const written = exported
    ? exported.files.flatMap((file) =>
        writeOnnxModel(file.graph, {
          path: join(folder, file.path),
          externalData: true,
          ...(file.externalDataChunk ? { externalDataChunk: file.externalDataChunk } : {}),
        }).files,
      )
    : writeOnnxModel(graph!, { path: join(folder, "onnx", onnxFile), externalData }).files;

  const paths = [
    "config.json",
    "generation_config.json",
    "tokenizer.json",
    "tokenizer_config.json",
    ...(tokenizerFiles.chatTemplateJinja !== undefined ? ["chat_template.jinja"] : []),
    ...written.map((file) => relative(folder, file).split(sep).join("/")),
  ];
  const files = describeFiles(folder, paths);
  const manifest: TestModelManifest = {
    id: definition.id,
    stamp: options.stamp,
    modelType: config.model_type as TestModelManifest["modelType"],
    dtype: definition.dtype,
    files,
    totalBytes: files.reduce((sum, file) => sum + file.bytes, 0),
  };
  writeFileSync(join(folder, MANIFEST_FILE), json(manifest));
  return manifest;
}
