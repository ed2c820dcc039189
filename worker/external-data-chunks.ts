import type { ModelFile } from "./protocol.js";

/**
 * How many `_data` chunks each ONNX graph of a file list has, keyed by the
 * graph's file name (`{ "model_q4f16.onnx": 2 }`): transformers.js's
 * `use_external_data_format` option, which it reads instead of the repo's
 * `config.json` declaration. So the engine opens exactly the chunks the
 * download list holds, and the two can never disagree.
 */
export function externalDataChunks(files: readonly Pick<ModelFile, "path">[]): Record<string, number> {
  const chunks: Record<string, number> = {};
  const paths = new Set(files.map((file) => file.path));
  for (const path of paths) {
    if (!path.endsWith(".onnx")) continue;
    let count = 0;
    while (paths.has(`${path}_data${count === 0 ? "" : `_${count}`}`)) count++;
    chunks[path.split("/").at(-1)!] = count;
  }
  return chunks;
}
