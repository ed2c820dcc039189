import { downloadFile, exactSize } from "./download-file.js";
import { EngineError } from "./engine-error.js";
import { modelEngineError } from "./engine-error-messages.js";
import { MODEL_CACHE_NAME, modelFileUrl } from "./model-file-url.js";
import { withModelLock } from "./model-lock.js";
import { deleteManifest, readManifest, writeManifest, type ManifestFile, type ModelManifest } from "./model-manifest.js";
import { deletePartial, discardPartial, partialBytes, readPartial, writePartial, type PartialDownload, type PartialFile } from "./partial-download.js";
import type { DownloadProgress, EngineErrorReason, ModelSource } from "./protocol.js";
import { manifestMatches, reusableFile } from "./saved-copy.js";

/** Options for {@link downloadModel}. */
export interface DownloadModelOptions {
  onProgress?: (progress: DownloadProgress) => void;
  signal?: AbortSignal;
  /** Default {@link MODEL_CACHE_NAME}. */
  cacheName?: string;
  /** Default `globalThis.fetch`. */
  fetch?: typeof fetch;
  /** Bytes per resumable piece (default `CHUNK_BYTES`, 8 MiB). */
  chunkBytes?: number;
}

/** Failures a later download resumes from: what arrived is kept. The rest start clean. */
const RESUMABLE = new Set<EngineErrorReason>(["unreachable", "connection_dropped", "http_status"]);

async function freeBytes(): Promise<number | undefined> {
  const storage = (globalThis.navigator as Navigator | undefined)?.storage;
  if (!storage?.estimate) return undefined;
  const { quota, usage } = await storage.estimate();
  return quota === undefined ? undefined : Math.max(0, quota - (usage ?? 0));
}

/** Whether every URL has an entry in `cache` (no body is read). */
export async function allInCache(cache: Cache, urls: string[]): Promise<boolean> {
  return (await Promise.all(urls.map(async (url) => (await cache.keys(url)).length > 0))).every(Boolean);
}

/**
 * Downloads every file of `model` into the Cache API, keyed by the file URL,
 * with byte progress across all files, and only then writes the manifest.
 *
 * - Never keeps a wrong file: a web page (text/html) instead of the file, a
 *   size other than the pinned one (`bytes` with a sha256 or `exactBytes`) or
 *   the announced one (content-length), and a sha256 other than the pinned
 *   one are rejected before the cache commits the file.
 * - Resumes: after a dropped connection, an unreachable server or an HTTP
 *   error, the files already verified and the pieces of the unfinished one
 *   stay (in the partial record, `partial-download.ts`), and the next call
 *   fetches only the rest, with a Range request (see `downloadFile`).
 * - Once per origin: under a Web Lock named after the model key, so a second
 *   tab waits (its progress following the first's partial record) and then
 *   finds the model cached, with no request.
 * - Reuses an outdated copy (saved before the catalog moved the model to
 *   another commit): a file whose pinned sha256 it already holds is copied
 *   to its new URL, not fetched; the old copy goes once the new one is saved.
 *
 * Rejects with an `EngineError` whose message is a sentence for the person
 * (`engineErrorMessage`): `download_failed` (`unreachable`,
 * `connection_dropped`, `http_status`, `not_a_model_file`,
 * `storage_failed`), `integrity_failed` (`size_mismatch`, `hash_mismatch`),
 * `quota_exceeded` (up front from the storage estimate, or from the cache),
 * or `aborted`. On every failure but the resumable ones, and on an abort,
 * nothing of the model is kept.
 */
export async function downloadModel(model: ModelSource, options: DownloadModelOptions = {}): Promise<ModelManifest> {
  const { signal, onProgress = () => {} } = options;
  const knownTotal = model.files.every((file) => file.bytes !== undefined) ? model.files.reduce((sum, file) => sum + (file.bytes ?? 0), 0) : undefined;
  const cache = await caches.open(options.cacheName ?? MODEL_CACHE_NAME);
  try {
    return await withModelLock(model.key, () => downloadHoldingLock(model, cache, knownTotal, options), {
      ...(signal && { signal }),
      whileWaiting: async () => {
        // Another tab is downloading this model: follow it through its partial record.
        const loadedBytes = partialBytes(await readPartial(model.key));
        onProgress({ loadedBytes, totalBytes: Math.max(knownTotal ?? 0, loadedBytes) });
      },
    });
  } catch (error) {
    if (signal?.aborted) throw new EngineError({ code: "aborted", message: "The download was cancelled; nothing was kept." }, { cause: error });
    throw error;
  }
}

async function downloadHoldingLock(model: ModelSource, cache: Cache, knownTotal: number | undefined, options: DownloadModelOptions): Promise<ModelManifest> {
  const { signal, onProgress = () => {} } = options;
  const fetchFile = options.fetch ?? globalThis.fetch.bind(globalThis);

  // Another tab may have finished it while this one waited for the lock.
  let previous = await readManifest(model.key);
  if (previous) {
    const complete = await allInCache(cache, previous.files.map((file) => file.url));
    if (complete && manifestMatches(previous, model)) {
      onProgress({ loadedBytes: previous.totalBytes, totalBytes: previous.totalBytes });
      return previous;
    }
    if (!complete) {
      await deleteManifest(model.key);
      previous = undefined;
    }
  }

  const partial: PartialDownload = (await readPartial(model.key)) ?? { key: model.key, files: {}, updatedAt: Date.now() };
  if (knownTotal !== undefined) {
    const needed = knownTotal - partialBytes(partial);
    const free = await freeBytes();
    if (free !== undefined && needed > free) throw modelEngineError({ code: "quota_exceeded", neededBytes: needed, freeBytes: free }, model);
  }

  const save = () => writePartial(partial);
  const files: ManifestFile[] = [];
  let loadedBytes = 0;
  let totalBytes = knownTotal ?? 0;
  try {
    for (const file of model.files) {
      signal?.throwIfAborted();
      const url = modelFileUrl(model, file.path);
      const reused = await copyUnchanged(cache, reusableFile(previous, file), url);
      if (reused) {
        files.push(reused);
        loadedBytes += reused.bytes;
        onProgress({ loadedBytes, totalBytes: Math.max(totalBytes, loadedBytes), file: file.path });
        continue;
      }
      const pinned = { ...(exactSize(file) !== undefined && { bytes: exactSize(file) }), ...(file.sha256 !== undefined && { sha256: file.sha256 }) };
      let state: PartialFile | undefined = partial.files[file.path];
      if (state && (state.url !== url || state.pinned.bytes !== pinned.bytes || state.pinned.sha256 !== pinned.sha256)) {
        // The catalog changed since: what was kept is another file.
        await Promise.all([...(state.done ? [state.done.url] : []), ...state.chunks.map((chunk) => chunk.url)].map((key) => cache.delete(key)));
        state = undefined;
      }
      state ??= { url, pinned, chunks: [] };
      partial.files[file.path] = state;
      onProgress({ loadedBytes, totalBytes: Math.max(totalBytes, loadedBytes), file: file.path });
      const stored = await downloadFile({
        cache,
        model,
        file,
        url,
        state,
        save,
        fetch: fetchFile,
        ...(signal && { signal }),
        ...(options.chunkBytes !== undefined && { chunkBytes: options.chunkBytes }),
        onSize: (bytes) => {
          if (knownTotal === undefined) totalBytes += bytes ?? 0;
        },
        onBytes: (bytes) => {
          loadedBytes += bytes;
          onProgress({ loadedBytes, totalBytes: Math.max(totalBytes, loadedBytes), file: file.path });
        },
      });
      files.push(stored);
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
      totalBytes: files.reduce((sum, file) => sum + file.bytes, 0),
      savedAt: Date.now(),
    };
    await writeManifest(manifest);
    await deletePartial(model.key);
    // What the outdated copy held that the new one does not.
    const kept = new Set(files.map((file) => file.url));
    await Promise.all((previous?.files ?? []).filter((file) => !kept.has(file.url)).map((file) => cache.delete(file.url).catch(() => false)));
    return manifest;
  } catch (error) {
    const resumable = !signal?.aborted && EngineError.isInstance(error) && error.reason !== undefined && RESUMABLE.has(error.reason);
    if (!resumable) {
      // Nothing half-kept: the record, its pieces, and any file entry a crash left unrecorded.
      await discardPartial(cache, model.key).catch(() => {});
      await Promise.all(model.files.map((file) => cache.delete(modelFileUrl(model, file.path)).catch(() => false)));
    }
    if (signal?.aborted) throw error;
    if (error instanceof DOMException && error.name === "QuotaExceededError") {
      throw modelEngineError({ code: "quota_exceeded", neededBytes: knownTotal ?? totalBytes, ...optional(await freeBytes()) }, model, error);
    }
    if (EngineError.isInstance(error)) throw error;
    // Anything else came from the cache or IndexedDB, not the network.
    throw modelEngineError({ code: "download_failed", reason: "storage_failed", detail: error instanceof Error ? error.message : String(error) }, model, error);
  }
}

const optional = (freeBytes: number | undefined) => (freeBytes === undefined ? {} : { freeBytes });

/** Copies an unchanged file of an outdated copy to its new URL; `undefined` when there is none to copy. */
async function copyUnchanged(cache: Cache, file: ManifestFile | undefined, url: string): Promise<ManifestFile | undefined> {
  if (!file) return undefined;
  if (file.url === url) return (await cache.keys(url)).length > 0 ? file : undefined;
  const response = await cache.match(file.url);
  if (!response) return undefined;
  await cache.put(url, response);
  return { ...file, url };
}
