import { modelFileUrl } from "./model-file-url.js";
import type { ModelSource } from "./protocol.js";

/** Reads one of a model's text files (`tokenizer.json`, `chat_template.jinja`…); `undefined` when the model has none. */
export type ReadModelText = (path: string) => Promise<string | undefined>;

/** Where {@link modelTextReader} reads from. */
export interface ModelTextSource {
  /** A folder (Node) or URL prefix (a page) holding `<repo>/<path>`, as `TransformersEngine`'s `localModelPath`. */
  localModelPath?: string;
  /** The Cache API cache the downloader filled, keyed by `modelFileUrl`; used when there is no `localModelPath`. */
  cacheName: string;
}

const isNode = typeof process !== "undefined" && !!process.versions?.node && typeof window === "undefined";

/**
 * A reader for `model`'s text files: from the Cache API under the very URL
 * the downloader stored them at (the pinned revision included), or from
 * `localModelPath` (a folder in Node, a URL prefix on a page). Never touches
 * the network for a cached model.
 */
export function modelTextReader(model: ModelSource, source: ModelTextSource): ReadModelText {
  const { localModelPath } = source;
  if (localModelPath === undefined) {
    return async (path) => {
      const cache = await caches.open(source.cacheName);
      const response = await cache.match(modelFileUrl(model, path));
      return response ? response.text() : undefined;
    };
  }
  const prefix = localModelPath.endsWith("/") ? localModelPath : `${localModelPath}/`;
  if (isNode) {
    return async (path) => {
      // process.getBuiltinModule, not import("node:fs/promises"): the worker bundle must hold no Node import.
      const fs = (process as unknown as { getBuiltinModule(name: string): typeof import("node:fs/promises") }).getBuiltinModule("node:fs/promises");
      try {
        return await fs.readFile(`${prefix}${model.repo}/${path}`, "utf8");
      } catch (error) {
        if ((error as { code?: string }).code === "ENOENT") return undefined;
        throw error;
      }
    };
  }
  return async (path) => {
    const response = await fetch(`${prefix}${model.repo}/${path}`);
    return response.ok ? response.text() : undefined;
  };
}
