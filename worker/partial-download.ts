import { createStore, del, get, set, type UseStore } from "idb-keyval";
import type { ManifestFile } from "./model-manifest.js";

/**
 * A piece of an unfinished file, kept in the Cache API under its own key
 * ({@link chunkUrl}) until the whole file is there.
 */
export interface PartialChunk {
  url: string;
  bytes: number;
}

/** How far one file of an unfinished download got. */
export interface PartialFile {
  /** The file's URL (its final key in the Cache API). */
  url: string;
  /** The pinned size and hash it was fetched against: a changed catalog starts the file over. */
  pinned: { bytes?: number; sha256?: string };
  /** Set once the file is whole, verified and in the Cache API under `url`. */
  done?: ManifestFile;
  /** The bytes so far, in order, each a Cache API entry. */
  chunks: PartialChunk[];
  /** The response's strong ETag or Last-Modified, sent as `If-Range` so a changed file is never spliced. */
  validator?: string;
}

/**
 * An unfinished download of one model: what survives a dropped connection or
 * a closed tab, so the next download fetches only what is missing. Kept apart
 * from the manifest, which only a complete, verified download writes.
 */
export interface PartialDownload {
  key: string;
  files: Record<string, PartialFile>;
  /** `Date.now()` of the last change. */
  updatedAt: number;
}

let store: UseStore | undefined;
/**
 * The IndexedDB store `web-agents-model-downloads` / `partials`: its own
 * database, because idb-keyval opens an existing database without an upgrade
 * and so cannot add a store to the manifests' one.
 */
function partialStore(): UseStore {
  store ??= createStore("web-agents-model-downloads", "partials");
  return store;
}

export function readPartial(key: string): Promise<PartialDownload | undefined> {
  return get<PartialDownload>(key, partialStore());
}

export function writePartial(partial: PartialDownload): Promise<void> {
  return set(partial.key, { ...partial, updatedAt: Date.now() }, partialStore());
}

export function deletePartial(key: string): Promise<void> {
  return del(key, partialStore());
}

/** The Cache API key of chunk `index` of the file at `url` (a query string: the Cache API ignores fragments). */
export function chunkUrl(url: string, index: number): string {
  const chunk = new URL(url);
  chunk.searchParams.set("web-agents-chunk", String(index));
  return chunk.href;
}

/** Bytes an unfinished download already holds (whole files and chunks), for the progress of a tab that waits for it. */
export function partialBytes(partial: PartialDownload | undefined): number {
  if (!partial) return 0;
  return Object.values(partial.files).reduce((sum, file) => sum + (file.done ? file.done.bytes : file.chunks.reduce((bytes, chunk) => bytes + chunk.bytes, 0)), 0);
}

/** Deletes an unfinished download: its record, its chunks and the whole files it kept. */
export async function discardPartial(cache: Cache, key: string): Promise<void> {
  const partial = await readPartial(key);
  if (!partial) return;
  await deletePartial(key);
  const urls = Object.values(partial.files).flatMap((file) => [...(file.done ? [file.done.url] : []), ...file.chunks.map((chunk) => chunk.url)]);
  await Promise.all(urls.map((url) => cache.delete(url).catch(() => false)));
}
