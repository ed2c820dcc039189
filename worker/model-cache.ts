import { downloadModel } from "./download-model.js";
import { MODEL_CACHE_NAME, modelFileUrl } from "./model-file-url.js";
import { deleteManifest, manifestCacheStatus, readManifest } from "./model-manifest.js";
import type { CacheStatus, DownloadProgress, ModelSource } from "./protocol.js";

/** Where the engine host keeps models: status, download, delete. */
export interface ModelStore {
  cacheStatus(model: ModelSource): Promise<CacheStatus>;
  download(model: ModelSource, onProgress: (progress: DownloadProgress) => void, signal: AbortSignal): Promise<void>;
  deleteModel(model: ModelSource): Promise<void>;
}

/**
 * The browser's model store: files in the Cache API ({@link MODEL_CACHE_NAME},
 * keyed by file URL), manifests in IndexedDB. Status comes from the manifest
 * only, so it is known offline.
 */
export function createModelCache(cacheName: string = MODEL_CACHE_NAME): ModelStore {
  return {
    cacheStatus: (model) => manifestCacheStatus(model),
    async download(model, onProgress, signal) {
      await downloadModel(model, { onProgress, signal, cacheName });
    },
    async deleteModel(model) {
      const manifest = await readManifest(model.key);
      // The manifest goes first: a half-deleted model must not look cached.
      await deleteManifest(model.key);
      const cache = await caches.open(cacheName);
      const urls = new Set([...(manifest?.files.map((file) => file.url) ?? []), ...model.files.map((file) => modelFileUrl(model, file.path))]);
      await Promise.all([...urls].map((url) => cache.delete(url)));
    },
  };
}
