import type { ModelSource } from "./protocol.js";

/** The Cache API cache that holds model files (bump the suffix when the layout changes). */
export const MODEL_CACHE_NAME = "web-agents-models-v1";

/**
 * `baseUrl` as an absolute URL with no trailing slash; a relative one
 * (`/models`) is resolved against the page or worker's location.
 */
export function absoluteBaseUrl(baseUrl: string): string {
  const location = (globalThis as { location?: { href: string } }).location;
  const absolute = location ? new URL(baseUrl, location.href).href : baseUrl;
  return absolute.replace(/\/+$/, "");
}

/**
 * Where a model file is fetched from, and its key in {@link MODEL_CACHE_NAME}:
 * `${baseUrl}/${repo}/resolve/${revision}/${path}` (revision `main` unless the
 * source pins one). transformers.js builds the same URL from `env.remoteHost`
 * + `env.remotePathTemplate` and its `revision` option, which is how it finds
 * our cached files without a request.
 */
export function modelFileUrl(model: Pick<ModelSource, "baseUrl" | "repo" | "revision">, path: string): string {
  return `${absoluteBaseUrl(model.baseUrl)}/${model.repo}/resolve/${encodeURIComponent(model.revision ?? "main")}/${path}`;
}
