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
 * the data marks an estimate. Throws for a repository or path the data does
 * not have: the catalog's own test imports every entry, so a typo fails
 * there, never on a person's device.
 */
export function hubVariantFiles(repositories: HubRepositories, repo: string, paths: readonly string[]): HubVariantFiles {
  const repository = repositories[repo];
  if (!repository) throw new Error(`No hub data for ${repo}: add it to the catalog's hub files.`);
  const files = paths.map((path): CatalogFile => {
    const file = repository.files[path];
    if (!file) throw new Error(`No hub data for ${repo} ${path}: add it to the catalog's hub files.`);
    if (file.sha256 !== undefined) return { path, bytes: file.bytes, sha256: file.sha256 };
    return file.estimate ? { path, bytes: file.bytes } : { path, bytes: file.bytes, exactBytes: true };
  });
  return { repo, revision: repository.revision, files, bytes: files.reduce((total, file) => total + file.bytes, 0) };
}
