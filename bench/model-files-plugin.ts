import { createReadStream, existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Plugin } from "vite";
import { VISIBLE_TEXT_MODEL_ID, visibleTextModel } from "./visible-text-model.js";

/** The URL prefix the bench serves built test models under: `${MODELS_BASE}/<id>/resolve/main/<path>`. */
export const MODELS_BASE = "/models/test";

interface ManifestLike {
  id: string;
  dtype: string;
  files: { path: string; bytes: number; sha256?: string }[];
  /** The prompt and tool-call format: Qwen3.5's for a `qwen3_5_text` model or one with Qwen3.5's chat template (XML calls). */
  format: "qwen3" | "qwen3.5";
}

/** Qwen3.5 when the config says so, or the chat template writes XML calls (the scripted Qwen3.5 stand-ins are Qwen3 graphs). */
function formatOf(folder: string, modelType: string | undefined): ManifestLike["format"] {
  if (modelType === "qwen3_5_text") return "qwen3.5";
  try {
    const template = (JSON.parse(readFileSync(join(folder, "tokenizer_config.json"), "utf8")) as { chat_template?: unknown }).chat_template;
    return typeof template === "string" && template.includes("<function=") ? "qwen3.5" : "qwen3";
  } catch {
    return "qwen3";
  }
}

/** The built test models in `root` (folders with a manifest.json), and `tiny-text` made from `tiny`, for the page's model list. */
export function listBuiltModels(root: string): ManifestLike[] {
  if (!existsSync(root)) return [];
  const visible = visibleTextModel(root);
  const derived: ManifestLike[] = visible ? [{ id: visible.id, dtype: visible.dtype, files: visible.files, format: visible.format }] : [];
  return derived.concat(readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith(".") && existsSync(join(root, entry.name, "manifest.json")))
    .flatMap((entry) => {
      try {
        const manifest = JSON.parse(readFileSync(join(root, entry.name, "manifest.json"), "utf8")) as ManifestLike & { modelType?: string };
        return [{ id: entry.name, dtype: manifest.dtype, files: manifest.files, format: formatOf(join(root, entry.name), manifest.modelType) }];
      } catch {
        return [];
      }
    }));
}

/**
 * Serves `<root>/<id>/<path>` (the built test models, `.cache/models/`) at
 * `/models/test/<id>/resolve/main/<path>`, the hub's layout, and their list
 * at `/bench-models.json`.
 */
export function benchModelFiles(root: string): Plugin {
  return {
    name: "bench-model-files",
    configureServer(server) {
      server.middlewares.use((request, response, next) => {
        const url = (request.url ?? "").split("?")[0]!;
        if (url === "/bench-models.json") {
          response.setHeader("content-type", "application/json");
          response.setHeader("cache-control", "no-store");
          return void response.end(JSON.stringify(listBuiltModels(root)));
        }
        const match = /^\/models\/test\/([\w.-]+)\/resolve\/main\/(.+)$/.exec(url);
        const visible = match?.[1] === VISIBLE_TEXT_MODEL_ID ? visibleTextModel(root) : undefined;
        const own = match && visible?.override(decodeURIComponent(match[2]!));
        if (own) {
          response.setHeader("content-length", own.byteLength);
          response.setHeader("content-type", "application/octet-stream");
          return void response.end(request.method === "HEAD" ? undefined : own);
        }
        const file = match && (visible ? join(visible.folder, decodeURIComponent(match[2]!)) : join(root, match[1]!, decodeURIComponent(match[2]!)));
        if (!match || !file || file.includes("..") || !existsSync(file) || !statSync(file).isFile()) return next();
        response.setHeader("content-length", statSync(file).size);
        response.setHeader("content-type", "application/octet-stream");
        if (request.method === "HEAD") return void response.end();
        createReadStream(file).pipe(response);
      });
    },
  };
}
