import type { HubFile, HubRepositories } from "../hub-files.js";
import type { HubTreeEntry } from "./hub-tree.js";

/** What the hub says of one repository. */
export interface HubRecord {
  /** The files at the catalog's pinned revision. */
  files: readonly HubTreeEntry[];
  /** The commit `main` points at now, when known. */
  latest?: string;
}

/** One way the catalog and the hub disagree. `fixable`: `--write` brings the catalog in line. */
export type CatalogDifference =
  | { kind: "missing"; repo: string; path: string; fixable: false }
  | { kind: "size"; repo: string; path: string; hub: number; catalog: number; estimate: boolean; fixable: true }
  | { kind: "sha256"; repo: string; path: string; hub: string; catalog?: string; fixable: true }
  | { kind: "revision"; repo: string; pinned: string; latest: string; fixable: false };

/**
 * Compares the catalog's data files with the hub's tree at each pinned
 * revision: files gone, sizes that differ (an estimate counts too), sha256
 * that differ or that the hub now gives (LFS files only: the tree API has
 * no sha256 for the others), and a newer commit on `main`. Returns the
 * differences and the repositories as `--write` would leave them (sizes
 * and hashes from the hub; what cannot be fixed unchanged).
 */
export function compareWithHub(
  repositories: HubRepositories,
  records: ReadonlyMap<string, HubRecord>,
): { differences: CatalogDifference[]; updated: HubRepositories } {
  const differences: CatalogDifference[] = [];
  const updated: Record<string, HubRepositories[string]> = {};
  for (const [repo, repository] of Object.entries(repositories)) {
    const record = records.get(repo);
    if (!record) {
      updated[repo] = repository;
      continue;
    }
    const tree = new Map(record.files.map((entry) => [entry.path, entry]));
    const files: Record<string, HubFile> = {};
    for (const [path, file] of Object.entries(repository.files)) {
      const entry = tree.get(path);
      if (!entry) {
        differences.push({ kind: "missing", repo, path, fixable: false });
        files[path] = file;
        continue;
      }
      const next: HubFile = { bytes: entry.size };
      if (entry.size !== file.bytes || file.estimate) {
        differences.push({ kind: "size", repo, path, hub: entry.size, catalog: file.bytes, estimate: file.estimate === true, fixable: true });
      }
      const hubSha = entry.lfs?.oid.toLowerCase();
      if (hubSha !== undefined && hubSha !== file.sha256?.toLowerCase()) {
        differences.push({ kind: "sha256", repo, path, hub: hubSha, ...(file.sha256 !== undefined && { catalog: file.sha256 }), fixable: true });
      }
      // A size the hub gave is exact; a hash is kept where the hub gives none (a small, non-LFS file).
      const sha256 = hubSha ?? (entry.size === file.bytes ? file.sha256 : undefined);
      if (sha256 !== undefined) next.sha256 = sha256;
      files[path] = next;
    }
    if (record.latest !== undefined && record.latest !== repository.revision) {
      differences.push({ kind: "revision", repo, pinned: repository.revision, latest: record.latest, fixable: false });
    }
    updated[repo] = { revision: repository.revision, files };
  }
  return { differences, updated };
}

/** One difference as a line for the maintainer. */
export function describeDifference(difference: CatalogDifference, revisionOf: (repo: string) => string): string {
  const at = `${difference.repo} @ ${revisionOf(difference.repo).slice(0, 12)}`;
  switch (difference.kind) {
    case "missing":
      return `${at}: ${difference.path} is not in the repository at this revision (a download would end in a 404): drop it from the catalog.`;
    case "size":
      if (!difference.estimate) return `${at}: ${difference.path} is ${difference.hub} bytes; the catalog says ${difference.catalog}.`;
      return difference.hub === difference.catalog
        ? `${at}: ${difference.path} is ${difference.hub} bytes, as the catalog estimated: the size can be pinned.`
        : `${at}: ${difference.path} is ${difference.hub} bytes; the catalog estimates ${difference.catalog}.`;
    case "sha256":
      return `${at}: ${difference.path} has sha256 ${difference.hub}; the catalog ${difference.catalog ? `says ${difference.catalog}` : "pins none"}.`;
    case "revision":
      return `${at}: main is now at ${difference.latest}; the catalog pins ${difference.pinned}. Check that commit's files before moving the pin.`;
  }
}
