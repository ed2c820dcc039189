import { createReadStream, existsSync, statSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { join, normalize, sep } from "node:path";
import type { Connect, Plugin } from "vite";

/** Where `npm start` serves model files. */
export const TEST_MODELS_PATH = "/models/test";
export const LOCAL_MODELS_PATH = "/models/local";

export interface ModelFilesOptions {
  /** The built test models (`.cache/models/`), served at `/models/test/<id>/resolve/main/<file>`; undefined: not served. */
  testModelsRoot?: string | undefined;
  /** A folder in the hub's layout (`<repo>/<file>`), served at `/models/local/<repo>/resolve/main/<file>`; undefined: not served. */
  localModelsDir?: string | undefined;
}

/** A file under `root`, or undefined for anything that would step outside it. */
function inside(root: string, relative: string): string | undefined {
  const decoded = decodeURIComponent(relative);
  if (decoded.split("/").some((segment) => segment === ".." || segment === "")) return undefined;
  const file = normalize(join(root, decoded));
  return file.startsWith(normalize(root + sep)) ? file : undefined;
}

function send(file: string | undefined, request: IncomingMessage, response: ServerResponse, next: Connect.NextFunction) {
  if (!file || !existsSync(file) || !statSync(file).isFile()) return next();
  response.setHeader("content-length", statSync(file).size);
  response.setHeader("content-type", file.endsWith(".json") ? "application/json" : "application/octet-stream");
  response.setHeader("access-control-allow-origin", "*");
  if (request.method === "HEAD") return void response.end();
  createReadStream(file).pipe(response);
}

/**
 * Serves model files in the model hub's layout (`<base>/<repo>/resolve/main/<path>`),
 * which is what the on-device engine fetches: the project's test models and,
 * with `WEB_AGENTS_MODELS_DIR`, a local copy of the Qwen models.
 */
export function modelFiles(options: ModelFilesOptions): Plugin {
  const handle: Connect.NextHandleFunction = (request, response, next) => {
    if (request.method !== "GET" && request.method !== "HEAD") return next();
    const url = (request.url ?? "").split("?")[0]!;
    const test = options.testModelsRoot ? /^\/models\/test\/([\w.-]+)\/resolve\/main\/(.+)$/.exec(url) : null;
    if (test) return send(inside(options.testModelsRoot!, `${test[1]}/${test[2]}`), request, response, next);
    const local = options.localModelsDir ? /^\/models\/local\/(.+?)\/resolve\/main\/(.+)$/.exec(url) : null;
    if (local) return send(inside(options.localModelsDir!, `${local[1]}/${local[2]}`), request, response, next);
    next();
  };
  return {
    name: "web-agents-model-files",
    configureServer: (server) => void server.middlewares.use(handle),
    configurePreviewServer: (server) => void server.middlewares.use(handle),
  };
}
