import { modelFileUrl } from "./model-file-url.js";
import type { ManifestFile, ModelManifest } from "./model-manifest.js";
import type { ModelFile, ModelSource } from "./protocol.js";

/**
 * Whether a saved copy is of exactly the files `model` names: the same URLs
 * (so the same commit and paths) and, for every file the source pins by
 * sha256, that hash. A copy saved before the catalog moved the model to
 * another commit or file list does not match: it is outdated, and loads
 * nothing (transformers.js looks files up by their new URLs).
 */
export function manifestMatches(manifest: ModelManifest, model: ModelSource): boolean {
  const saved = new Map(manifest.files.map((file) => [file.url, file]));
  if (saved.size !== model.files.length) return false;
  return model.files.every((file) => {
    const copy = saved.get(modelFileUrl(model, file.path));
    return copy !== undefined && (file.sha256 === undefined || copy.sha256 === file.sha256.toLowerCase());
  });
}

/**
 * The file of an earlier copy that is `file` byte for byte: the same path
 * and the sha256 the source pins (a file without a pinned hash is never
 * assumed unchanged). A download copies it to its new URL instead of
 * fetching it again.
 */
export function reusableFile(previous: ModelManifest | undefined, file: ModelFile): ManifestFile | undefined {
  if (!previous || file.sha256 === undefined) return undefined;
  const sha256 = file.sha256.toLowerCase();
  return previous.files.find((candidate) => candidate.path === file.path && candidate.sha256 === sha256);
}
