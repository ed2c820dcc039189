import type { CatalogFile } from "./catalog-schema.js";

/**
 * One file of a hub repository at its pinned revision, as the catalog's data
 * files (`qwen3-hub-files.json`, `qwen35-hub-files.json`) record it: `bytes`
 * exact, `sha256` where a public record gives it. `estimate` marks the few
 * sizes no record agrees on: the server's `content-length` is enforced
 * instead.
 */
export interface HubFile {
  bytes: number;
  sha256?: string;
  estimate?: boolean;
}

/** A hub repository pinned to one commit, and the files of it the catalog uses. */
export interface HubRepository {
  /** The commit (40 hex) every URL names: `<baseUrl>/<repo>/resolve/<revision>/<path>`. */
  revision: string;
  files: Readonly<Record<string, HubFile>>;
}

/** Hub repositories by id (`onnx-community/Qwen3-0.6B-ONNX`). */
export type HubRepositories = Readonly<Record<string, HubRepository>>;

/** What a catalog variant takes from its repository: where, at which commit, which files and their sum. */
export interface HubVariantFiles {
  repo: string;
  revision: string;
  files: CatalogFile[];
  bytes: number;
}

/**
 * The catalog files for `paths` of `repo` at its pinned revision: exact
 * sizes (`exactBytes`, or a `sha256` that pins the size too) except where
 * the data marks an estimate. A repository or path the data lacks fails on
 * import, and the catalog's tests import every entry (catalog.test.ts), so a
 * typo fails there, never on a person's device.
 */
export function hubVariantFiles(repositories: HubRepositories, repo: string, paths: readonly string[]): HubVariantFiles {
  const { revision, files: recorded } = repositories[repo]!;
  const files = paths.map((path): CatalogFile => {
    const { bytes, sha256, estimate } = recorded[path]!;
    return sha256 ? { path, bytes, sha256 } : estimate ? { path, bytes } : { path, bytes, exactBytes: true };
  });
  return { repo, revision, files, bytes: files.reduce((total, file) => total + file.bytes, 0) };
}
