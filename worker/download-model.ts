import { EngineError, toEngineError } from "./engine-error.js";
import { MODEL_CACHE_NAME, modelFileUrl } from "./model-file-url.js";
import { writeManifest, type ManifestFile, type ModelManifest } from "./model-manifest.js";
import type { DownloadProgress, ModelSource } from "./protocol.js";
import { verifyingStream } from "./verifying-stream.js";

/** Options for {@link downloadModel}. */
export interface DownloadModelOptions {
  onProgress?: (progress: DownloadProgress) => void;
  signal?: AbortSignal;
  /** Default {@link MODEL_CACHE_NAME}. */
  cacheName?: string;
  /** Default `globalThis.fetch`. */
  fetch?: typeof fetch;
}

const formatBytes = (bytes: number) => (bytes >= 1e9 ? `${(bytes / 1e9).toFixed(1)} GB` : `${Math.ceil(bytes / 1e6)} MB`);

function quotaError(neededBytes: number, freeBytes: number | undefined, cause?: unknown): EngineError {
  const free = freeBytes === undefined ? "less than that is free" : `${formatBytes(freeBytes)} is free`;
  return new EngineError(
    {
      code: "quota_exceeded",
      message: `Not enough storage for this model: it needs ${formatBytes(neededBytes)} and ${free}. Free up space or choose a smaller model.`,
      neededBytes,
      ...(freeBytes === undefined ? {} : { freeBytes }),
    },
    { cause },
  );
}

async function freeBytes(): Promise<number | undefined> {
  const storage = (globalThis.navigator as Navigator | undefined)?.storage;
  if (!storage?.estimate) return undefined;
  const { quota, usage } = await storage.estimate();
  return quota === undefined ? undefined : Math.max(0, quota - (usage ?? 0));
}

/**
 * Downloads every file of `model` once (one GET each), with byte progress
 * across all files, streamed into the Cache API keyed by the file URL (no
 * whole copy of a file is held, so files over 2 GB download too); verifies
 * the size against the response's content-length (or the file's pinned size
 * when it comes with a sha256; a catalog's other sizes are estimates) and the
 * sha256 where the source knows it, before the cache commits the file; and
 * only then writes the manifest.
 * On failure or abort the files written so far are deleted and no manifest
 * is written. Rejects with an `EngineError`: `download_failed`,
 * `integrity_failed`, `quota_exceeded` (up front from the storage estimate,
 * or from `cache.put`), or `aborted`.
 */
export async function downloadModel(model: ModelSource, options: DownloadModelOptions = {}): Promise<ModelManifest> {
  const { signal, onProgress = () => {} } = options;
  const fetchFile = options.fetch ?? globalThis.fetch.bind(globalThis);
  const knownTotal = model.files.every((file) => file.bytes !== undefined) ? model.files.reduce((sum, file) => sum + (file.bytes ?? 0), 0) : undefined;

  if (knownTotal !== undefined) {
    const free = await freeBytes();
    if (free !== undefined && knownTotal > free) throw quotaError(knownTotal, free);
  }

  const cache = await caches.open(options.cacheName ?? MODEL_CACHE_NAME);
  const written: string[] = [];
  const files: ManifestFile[] = [];
  let loadedBytes = 0;
  let totalBytes = knownTotal ?? 0;
  try {
    for (const file of model.files) {
      signal?.throwIfAborted();
      const url = modelFileUrl(model, file.path);
      const response = await fetchFile(url, signal ? { signal } : {});
      if (!response.ok) {
        throw new EngineError({ code: "download_failed", message: `Could not download ${file.path}: HTTP ${response.status}.`, file: file.path, status: response.status });
      }
      if (knownTotal === undefined) totalBytes += Number(response.headers.get("content-length") ?? 0);
      onProgress({ loadedBytes, totalBytes, file: file.path });
      // A catalog's sizes are estimates (they size the quota check and the progress bar); the
      // exact size is the server's content-length, or the file's own when it is pinned by a sha256.
      const lengthHeader = response.headers.get("content-encoding") ? null : response.headers.get("content-length");
      const announced = lengthHeader ? Number(lengthHeader) : Number.NaN;
      const expected = file.sha256 !== undefined && file.bytes !== undefined ? file.bytes : Number.isFinite(announced) ? announced : undefined;
      // Streamed into the cache, counted and hashed on the way: never a whole copy in memory.
      // The stream errors at its end on a wrong size or sha256, so Cache.put commits nothing then.
      const { stream, file: verified } = verifyingStream({ path: file.path, ...(expected !== undefined && { bytes: expected }), ...(file.sha256 !== undefined && { sha256: file.sha256 }) }, (chunk) => {
        loadedBytes += chunk;
        onProgress({ loadedBytes, totalBytes: Math.max(totalBytes, loadedBytes), file: file.path });
      });
      const body = response.body ?? new Response(await response.arrayBuffer()).body!;
      const headers: Record<string, string> = { "content-type": response.headers.get("content-type") ?? "application/octet-stream" };
      if (expected !== undefined) headers["content-length"] = String(expected);
      try {
        written.push(url);
        await cache.put(url, new Response(body.pipeThrough(stream), { headers }));
      } catch (error) {
        if (verified.error) throw verified.error;
        if (error instanceof DOMException && error.name === "QuotaExceededError") throw quotaError(knownTotal ?? totalBytes, await freeBytes(), error);
        throw error;
      }
      signal?.throwIfAborted();
      files.push({ path: file.path, url, bytes: verified.bytes, sha256: verified.sha256 });
    }
    signal?.throwIfAborted();
    const manifest: ModelManifest = {
      key: model.key,
      engine: model.engine,
      device: model.device,
      dtype: model.dtype,
      repo: model.repo,
      baseUrl: model.baseUrl,
      files,
      totalBytes: loadedBytes,
      savedAt: Date.now(),
    };
    await writeManifest(manifest);
    return manifest;
  } catch (error) {
    await Promise.all(written.map((url) => cache.delete(url).catch(() => false)));
    if (signal?.aborted) throw new EngineError({ code: "aborted", message: "The download was cancelled; nothing was kept." }, { cause: error });
    throw toEngineError(error, "download_failed");
  }
}
