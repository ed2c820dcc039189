import { createHash } from "node:crypto";
import { closeSync, existsSync, openSync, readFileSync, readSync, statSync } from "node:fs";
import { join } from "node:path";

/** One file of a model folder. */
export interface TestModelFile {
  /** Relative to the folder, with `/` separators (e.g. `onnx/model.onnx`). */
  path: string;
  bytes: number;
  /** Hex SHA-256 of the contents. */
  sha256: string;
}

/**
 * `manifest.json` in a built model folder: what the folder holds, so a
 * downloader can show byte progress and verify each file, and so the builder
 * can tell a complete, current build from a stale or interrupted one (the
 * manifest is written last).
 */
export interface TestModelManifest {
  /** The folder's name under the models root, e.g. `tiny`. */
  id: string;
  /** Hash of the builder's sources and the model's options: a changed builder rebuilds. */
  stamp: string;
  /** config.json's `model_type`: `qwen3`, `qwen3_5_text` for the Qwen3.5-shaped models, `qwen3_5` for the hub-layout (multimodal) export. */
  modelType: "qwen3" | "qwen3_5_text" | "qwen3_5";
  /** The transformers.js `dtype` to load it with (it picks the ONNX file name). */
  dtype: "fp32" | "q8" | "q4";
  /** Every file except the manifest itself. */
  files: TestModelFile[];
  /** Sum of `files[].bytes`. */
  totalBytes: number;
}

/** The manifest's file name inside a model folder. */
export const MANIFEST_FILE = "manifest.json";

/** SHA-256 of a file, read 16 MB at a time (external data files run to gigabytes). */
export function hashFile(path: string): string {
  const hash = createHash("sha256");
  const chunk = new Uint8Array(16 * 1024 * 1024);
  const descriptor = openSync(path, "r");
  try {
    for (let read = readSync(descriptor, chunk); read > 0; read = readSync(descriptor, chunk)) hash.update(chunk.subarray(0, read));
  } finally {
    closeSync(descriptor);
  }
  return hash.digest("hex");
}

/** Sizes and hashes of `paths` (relative to `folder`). */
export function describeFiles(folder: string, paths: readonly string[]): TestModelFile[] {
  return paths.map((path) => {
    const absolute = join(folder, path);
    return { path, bytes: statSync(absolute).size, sha256: hashFile(absolute) };
  });
}

/** The folder's manifest, or undefined when there is none or it cannot be parsed. */
export function readTestModelManifest(folder: string): TestModelManifest | undefined {
  const path = join(folder, MANIFEST_FILE);
  if (!existsSync(path)) return undefined;
  try {
    return JSON.parse(readFileSync(path, "utf8")) as TestModelManifest;
  } catch {
    return undefined;
  }
}

/** True when the manifest's files are all present with the recorded sizes (hashes are not re-read). */
export function filesMatchManifest(folder: string, manifest: TestModelManifest): boolean {
  return manifest.files.every((file) => {
    const path = join(folder, file.path);
    return existsSync(path) && statSync(path).size === file.bytes;
  });
}
