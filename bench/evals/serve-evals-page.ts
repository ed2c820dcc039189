// The evals page inside any Vite dev server (npm start's: examples/vite.config.ts):
// /evals/ is bench/evals/index.html, /evals/models.json lists the built test
// models, and the models' files are served where the page's entries point.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Connect, Logger, Plugin } from "vite";
import { modelFiles, TEST_MODELS_PATH } from "../../examples/model-files.js";
import { evalModelEntries } from "./eval-model-entries.js";

const here = fileURLToPath(new URL(".", import.meta.url));
const defaultModelsRoot = fileURLToPath(new URL("../../.cache/models/", import.meta.url));

/** The page's path on the server. */
export const EVALS_PATH = "/evals/";

export interface ServeEvalsPageOptions {
  /** Where the test models are built. Default `.cache/models/`. */
  modelsRoot?: string;
}

/** Builds the small models the page checks at first (seconds on a cold machine, nothing on a warm one). */
async function ensureEvalModels(root: string): Promise<void> {
  const { ensureTestModel, tinyModel, tinyQwen35Model } = await import("../../models/test-models/index.js");
  const { evalScriptedModels } = await import("../../models/test-models/eval-scripted-models.js");
  for (const definition of [...evalScriptedModels(), tinyModel(), tinyQwen35Model()]) await ensureTestModel(definition, { root });
}

/**
 * Serves the evals page at {@link EVALS_PATH} from this folder, its models'
 * list at `/evals/models.json` (after building the small test models), and
 * the test models' files at `/models/test/<id>/resolve/main/<file>`. In a
 * dev server it compiles the page on request; in Vite's preview server the
 * page is a build (`buildEvalsPage` in runtime/test-support/fixture-builds.ts,
 * served with `base: "/evals/"`) and this adds the models' routes.
 */
export function serveEvalsPage(options: ServeEvalsPageOptions = {}): Plugin {
  const root = options.modelsRoot ?? defaultModelsRoot;
  const files = modelFiles({ testModelsRoot: root });
  const routes = (logger: Logger): Connect.NextHandleFunction => {
    const ready = ensureEvalModels(root);
    ready.catch((error: unknown) => logger.error(`[evals] could not build the test models: ${String(error)}`));
    return (request, response, next) => {
      const url = (request.url ?? "").split("?")[0]!;
      if (url === "/evals") {
        response.statusCode = 302;
        response.setHeader("location", EVALS_PATH);
        return void response.end();
      }
      if (url === `${EVALS_PATH}models.json`) {
        void ready.then(
          () => {
            response.setHeader("content-type", "application/json");
            response.end(JSON.stringify(evalModelEntries(root, TEST_MODELS_PATH)));
          },
          (error: unknown) => next(error),
        );
        return;
      }
      next();
    };
  };
  return {
    name: "web-agents-evals-page",
    configureServer(server) {
      server.middlewares.use(routes(server.config.logger));
      server.middlewares.use((request, response, next) => {
        const url = (request.url ?? "").split("?")[0]!;
        if (url !== EVALS_PATH && url !== `${EVALS_PATH}index.html`) return next();
        const html = readFileSync(`${here}index.html`, "utf8").replace('src="./evals-page.ts"', `src="/@fs${here}evals-page.ts"`);
        void server.transformIndexHtml(url, html).then(
          (transformed) => {
            // Vite's server.headers (COOP/COEP: WASM threads) reach only the responses it makes itself.
            for (const [name, value] of Object.entries(server.config.server.headers ?? {})) if (value !== undefined) response.setHeader(name, value);
            response.setHeader("content-type", "text/html");
            response.end(transformed);
          },
          (error: unknown) => next(error),
        );
      });
      (files.configureServer as (server: unknown) => void)(server);
    },
    configurePreviewServer(server) {
      server.middlewares.use(routes(server.config.logger));
      (files.configurePreviewServer as (server: unknown) => void)(server);
    },
  };
}
