/**
 * The hub's own record of a repository, read over its public API: the files
 * at a revision (`/api/models/<repo>/tree/<revision>?recursive=1`) and the
 * commit `main` points at (`/api/models/<repo>`). Maintainers' tooling
 * (`npm run catalog:check`), never product code.
 */

/** One entry of the tree API, in its documented shape (huggingface.js `ListFileEntry`). */
export interface HubTreeEntry {
  type: "file" | "directory" | "unknown";
  path: string;
  /** The file's size in bytes (an LFS file's real size, not its pointer's). */
  size: number;
  /** The git blob id (sha1): not a sha256. */
  oid: string;
  /** Only for files stored in LFS: `oid` is the file's sha256. */
  lfs?: { oid: string; size: number; pointerSize: number };
}

/** Why the hub could not be read: a sentence, and the URL asked. */
export class HubReadError extends Error {
  override readonly name = "HubReadError";
  constructor(
    message: string,
    readonly url: string,
  ) {
    super(message);
  }
}

async function getJson(url: string, fetchImpl: typeof fetch): Promise<{ body: unknown; next?: string }> {
  let response: Response;
  try {
    response = await fetchImpl(url, { headers: { accept: "application/json" } });
  } catch (error) {
    throw new HubReadError(`Could not reach ${new URL(url).host} (${(error as Error).message}). catalog:check needs the hub's API, or --base-url a mirror of it.`, url);
  }
  if (!response.ok) throw new HubReadError(`${url} answered HTTP ${response.status}.`, url);
  const body: unknown = await response.json();
  // The tree API pages its answer with a Link header (rel="next"), as huggingface.js follows it.
  const next = /<([^>]+)>;\s*rel="next"/.exec(response.headers.get("link") ?? "")?.[1];
  return next ? { body, next: new URL(next, url).href } : { body };
}

/** Every file of `repo` at `revision`, all pages of the tree API. */
export async function fetchHubTree(baseUrl: string, repo: string, revision: string, fetchImpl: typeof fetch = fetch): Promise<HubTreeEntry[]> {
  const entries: HubTreeEntry[] = [];
  let url: string | undefined = `${baseUrl.replace(/\/+$/, "")}/api/models/${repo}/tree/${encodeURIComponent(revision)}?recursive=1`;
  while (url) {
    const page: { body: unknown; next?: string } = await getJson(url, fetchImpl);
    if (!Array.isArray(page.body)) throw new HubReadError(`${url} did not answer with a list of files.`, url);
    entries.push(...(page.body as HubTreeEntry[]));
    url = page.next;
  }
  return entries.filter((entry) => entry.type === "file");
}

/** The commit `main` points at now (the model info's `sha`), or `undefined` when the API does not say. */
export async function fetchLatestRevision(baseUrl: string, repo: string, fetchImpl: typeof fetch = fetch): Promise<string | undefined> {
  const { body } = await getJson(`${baseUrl.replace(/\/+$/, "")}/api/models/${repo}`, fetchImpl);
  const sha = (body as { sha?: unknown } | null)?.sha;
  return typeof sha === "string" ? sha : undefined;
}
