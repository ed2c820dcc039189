import { createStore, del, get, set, type UseStore } from "idb-keyval";
import type { EngineDevice, EngineKind } from "./protocol.js";

/** One downloaded, verified file. */
export interface ManifestFile {
  path: string;
  /** The file's URL, also its key in the Cache API cache. */
  url: string;
  bytes: number;
  /** Hex sha256 of what was stored (checked against the catalog's when it had one). */
  sha256: string;
}

/**
 * The record that makes a model cached: written to IndexedDB only after
 * every file is in the Cache API and verified, so an interrupted download
 * never looks cached.
 */
export interface ModelManifest {
  key: string;
  engine: EngineKind;
  device: EngineDevice;
  /** The variant. */
  dtype: string;
  repo: string;
  baseUrl: string;
  files: ManifestFile[];
  totalBytes: number;
  /** `Date.now()` when the last file was verified. */
  savedAt: number;
}

let store: UseStore | undefined;
/** The IndexedDB store `web-agents-models` / `manifests` (opened on first use: there is no IndexedDB in Node). */
function manifestStore(): UseStore {
  store ??= createStore("web-agents-models", "manifests");
  return store;
}

/** The manifest of `key`, or undefined when the model is not (completely) cached. */
export function readManifest(key: string): Promise<ModelManifest | undefined> {
  return get<ModelManifest>(key, manifestStore());
}

/** Records a complete, verified download. */
export function writeManifest(manifest: ModelManifest): Promise<void> {
  return set(manifest.key, manifest, manifestStore());
}

/** Forgets a model; its files stay until they are deleted too. */
export function deleteManifest(key: string): Promise<void> {
  return del(key, manifestStore());
}
