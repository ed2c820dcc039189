import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Plugin, UserConfig } from "vite";
import type { ChatHandler } from "@webmcp-agents/chat/server";
import { chatRoute } from "./chat-route.js";
import { packageAliases } from "./package-aliases.js";
import { serveServiceWorker } from "./offline-assistant/serve-service-worker.js";
import { LOCAL_MODELS_PATH, modelFiles, TEST_MODELS_PATH } from "./model-files.js";

const root = fileURLToPath(new URL(".", import.meta.url));
const repoRoot = fileURLToPath(new URL("..", import.meta.url));
/** Where `npm run models:build` and `prestart` put the test models (models/test-models/ensure-test-model.ts). */
const testModelsRoot = fileURLToPath(new URL("../.cache/models/", import.meta.url));
const HUB = "https://huggingface.co";

/**
 * Makes every example page cross-origin isolated, so ONNX Runtime runs WASM
 * threads (SharedArrayBuffer) on the CPU path. COEP `require-corp`, not
 * `credentialless`: it works in Chrome, Firefox and Safari (Safari has no
 * `credentialless`, so a page relying on it would run one thread there), and
 * the examples need nothing it blocks: everything is same-origin but the
 * model files, which `fetch` reads from huggingface.co with CORS (a CORS
 * response passes either policy). A site that embeds cross-origin images,
 * scripts or iframes without CORS or `Cross-Origin-Resource-Policy` would
 * weigh `credentialless` instead. COOP `same-origin` also cuts
 * `window.opener` to and from pages of other origins (OAuth or payment pop-ups).
 */
export const CROSS_ORIGIN_ISOLATION_HEADERS: Readonly<Record<string, string>> = {
  "Cross-Origin-Opener-Policy": "same-origin",
  "Cross-Origin-Embedder-Policy": "require-corp",
};

/** What the examples server takes; `npm start` reads it from the environment and its flags. */
export interface ExamplesOptions {
  /** Provider keys, `WEB_AGENTS_MODEL`, `WEB_AGENTS_TEST_MODELS`, `WEB_AGENTS_MODELS_DIR`. Default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Command-line flags: `--test-models`, `--models-dir=<folder>`. Default `process.argv`. */
  argv?: readonly string[];
  /** A chat handler to mount at `/api/chat` instead of the real one (tests mount a mock model). */
  chatHandler?: ChatHandler;
  /** Print the examples' URLs once listening. Default true. */
  printUrls?: boolean;
}

/** The settings `npm start` runs with, from the environment and flags. */
export function examplesSettings(options: Pick<ExamplesOptions, "env" | "argv"> = {}) {
  const env = options.env ?? process.env;
  const argv = options.argv ?? process.argv;
  const flag = argv.find((arg) => arg.startsWith("--models-dir="));
  const testModels = argv.includes("--test-models") || /^(1|true|yes)$/i.test(env.WEB_AGENTS_TEST_MODELS ?? "");
  const localModelsDir = flag ? flag.slice("--models-dir=".length) : env.WEB_AGENTS_MODELS_DIR || undefined;
  return { testModels, localModelsDir };
}

function printUrls(settings: ReturnType<typeof examplesSettings>, env: Readonly<Record<string, string | undefined>>): Plugin {
  return {
    name: "web-agents-print-urls",
    configureServer(server) {
      server.httpServer?.once("listening", () => {
        const address = server.httpServer?.address();
        if (!address || typeof address === "string") return;
        const origin = `http://${server.config.server.host ?? "localhost"}:${address.port}`;
        const lines = [
          "",
          "  @webmcp-agents/chat examples",
          `  Index:              ${origin}/`,
          `  Field Store:        ${origin}/field-store/`,
          `  Offline assistant:  ${origin}/offline-assistant/`,
          `  Runtime demo:       ${origin}/runtime-demo/`,
          `  /api/chat:          ${origin}/api/chat (${env.WEB_AGENTS_MODEL ?? "openai/gpt-5.5"}; with no provider key the cloud chat says it isn't configured)`,
          `  On-device models:   ${settings.localModelsDir ? `${settings.localModelsDir} at ${origin}${LOCAL_MODELS_PATH}` : HUB}`,
          `  Test models:        ${settings.testModels ? `on, from ${testModelsRoot}` : "off (WEB_AGENTS_TEST_MODELS=1 npm start to offer them)"}`,
          "",
        ];
        // After Vite's own banner.
        setTimeout(() => server.config.logger.info(lines.join("\n")), 50);
      });
    },
  };
}

/** Builds the examples' own test models (the Field Store's and the offline assistant's scripts) when test models are on. */
function ensureExampleModels(enabled: boolean): Plugin {
  const ensure = async () => {
    if (!enabled) return;
    const { ensureTestModel, defaultTestModels } = await import("../models/test-models/index.js");
    const { exampleTestModels } = await import("../models/test-models/example-scripted-models.js");
    for (const definition of [...defaultTestModels(), ...exampleTestModels()]) await ensureTestModel(definition);
  };
  return { name: "web-agents-example-models", configureServer: ensure, configurePreviewServer: ensure };
}

/**
 * Copies the plain-HTML page's `models.json` into a build: the page fetches
 * it beside itself (`npm start` serves it from the folder), and Vite copies
 * only what a page imports or `public/` holds.
 */
function copyPlainHtmlModels(): Plugin {
  return {
    name: "web-agents-plain-html-models",
    apply: "build",
    generateBundle() {
      this.emitFile({ type: "asset", fileName: "plain-html/models.json", source: readFileSync(`${root}plain-html/models.json`, "utf8") });
    },
  };
}

/**
 * The Vite config `npm start` serves (examples/vite.config.ts): the example
 * pages, `/api/chat`, and the model files the on-device adapter fetches.
 */
export function examplesConfig(options: ExamplesOptions = {}): UserConfig {
  const env = options.env ?? process.env;
  const settings = examplesSettings(options);
  return {
    root,
    plugins: [
      chatRoute({ env, ...(options.chatHandler && { handler: options.chatHandler }) }),
      modelFiles({ testModelsRoot: settings.testModels ? testModelsRoot : undefined, localModelsDir: settings.localModelsDir }),
      ensureExampleModels(settings.testModels),
      serveServiceWorker(),
      copyPlainHtmlModels(),
      ...(options.printUrls === false ? [] : [printUrls(settings, env)]),
    ],
    define: {
      __WEB_AGENTS_EXAMPLES__: JSON.stringify({
        testModels: settings.testModels,
        testModelsBaseUrl: TEST_MODELS_PATH,
        modelsBaseUrl: settings.localModelsDir ? LOCAL_MODELS_PATH : HUB,
      }),
    },
    // JSX with React's automatic runtime (no React plugin: no fast refresh needed here).
    oxc: { jsx: { runtime: "automatic", importSource: "react" } },
    // React is CommonJS: pre-bundle it. Everything else is ESM and served as is,
    // so a first visit never triggers a re-optimization and a reload.
    optimizeDeps: {
      noDiscovery: true,
      include: ["react", "react/jsx-runtime", "react/jsx-dev-runtime", "react-dom", "react-dom/client"],
    },
    // The examples import the package by name, as a site does.
    resolve: {
      alias: packageAliases(),
    },
    // Vite sends these with the pages, modules and workers it serves itself; the
    // plugins' same-origin responses (model files, /api/chat, the service worker) need none.
    server: { host: "127.0.0.1", port: 5173, fs: { allow: [repoRoot] }, headers: { ...CROSS_ORIGIN_ISOLATION_HEADERS } },
    preview: { headers: { ...CROSS_ORIGIN_ISOLATION_HEADERS } },
    build: {
      outDir: fileURLToPath(new URL("../dist-examples", import.meta.url)),
      emptyOutDir: true,
      rollupOptions: {
        input: {
          index: `${root}index.html`,
          runtime: `${root}runtime-demo/index.html`,
          store: `${root}field-store/index.html`,
          offline: `${root}offline-assistant/index.html`,
          plain: `${root}plain-html/index.html`,
          "multi-page": `${root}multi-page/index.html`,
          "multi-page-product": `${root}multi-page/product.html`,
          "multi-page-cart": `${root}multi-page/cart.html`,
          "multi-page-orders": `${root}multi-page/orders.html`,
        },
      },
    },
  };
}
