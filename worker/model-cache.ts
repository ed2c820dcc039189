import { allInCache, downloadModel } from "./download-model.js";
import { MODEL_CACHE_NAME, modelFileUrl } from "./model-file-url.js";
import { deleteManifest, readManifest } from "./model-manifest.js";
import { manifestMatches } from "./saved-copy.js";
import { discardPartial } from "./partial-download.js";
import type { CacheStatus, DownloadProgress, ModelSource } from "./protocol.js";

/** Where the engine host keeps models: status, download, delete. */
export interface ModelStore {
  /** Whether the model is here; a copy found broken is removed then, and reported `removed`. */
  cacheStatus(model: ModelSource): Promise<CacheStatus>;
  download(model: ModelSource, onProgress: (progress: DownloadProgress) => void, signal: AbortSignal): Promise<void>;
  /** Removes the model's files, manifest and any unfinished download of it. */
  deleteModel(model: ModelSource): Promise<void>;
}

/**
 * The browser's model store: files in the Cache API ({@link MODEL_CACHE_NAME},
 * keyed by file URL), manifests in IndexedDB. Status comes from the manifest
 * and the cache's keys (no body read, no network), so it is known offline,
 * and a manifest whose files the browser evicted never reads as cached: it
 * is removed, with what is left of its files (`removed: "evicted"`). A copy
 * of other files than the source names (saved before the catalog pinned
 * another commit) is `outdated`: not cached, and kept until a download
 * replaces it, reusing the files whose pinned sha256 it already holds.
 */
export function createModelCache(cacheName: string = MODEL_CACHE_NAME): ModelStore {
  const store: ModelStore = {
    async cacheStatus(model) {
      const manifest = await readManifest(model.key);
      if (!manifest) return { cached: false };
      const cache = await caches.open(cacheName);
      if (!(await allInCache(cache, manifest.files.map((file) => file.url)))) {
        await store.deleteModel(model);
        return { cached: false, removed: "evicted" };
      }
      return manifestMatches(manifest, model) ? { cached: true, bytes: manifest.totalBytes } : { cached: false, outdated: true };
    },
    async download(model, onProgress, signal) {
      await downloadModel(model, { onProgress, signal, cacheName });
    },
    async deleteModel(model) {
      const manifest = await readManifest(model.key);
      // The manifest goes first: a half-deleted model must not look cached.
      await deleteManifest(model.key);
      const cache = await caches.open(cacheName);
      await discardPartial(cache, model.key);
      const urls = new Set([...(manifest?.files.map((file) => file.url) ?? []), ...model.files.map((file) => modelFileUrl(model, file.path))]);
      await Promise.all([...urls].map((url) => cache.delete(url)));
    },
  };
  return store;
}
