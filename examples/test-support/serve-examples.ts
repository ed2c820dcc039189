import type { AddressInfo } from "node:net";
import { createServer, preview, type Connect, type Plugin, type PreviewServer, type ViteDevServer } from "vite";
import type { ChatHandler } from "@webmcp-agents/chat/server";
import { BUILT_FIXTURES_VARIABLE, currentExamplesBuild, servesFromSource } from "../../runtime/test-support/fixture-builds.js";
import { serveEvalsPage } from "../../bench/evals/serve-evals-page.js";
import { CROSS_ORIGIN_ISOLATION_HEADERS, examplesConfig } from "../examples-config.js";

/** The examples served for one test file. */
export interface ExamplesServer {
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  origin: string;
  close(): Promise<void>;
}

export interface ServeExamplesOptions {
  /** Offer the test models, as `WEB_AGENTS_TEST_MODELS=1 npm start` does. Default false. */
  testModels?: boolean;
  /** Mounted at `/api/chat` instead of the real handler (a mock model). */
  chatHandler?: ChatHandler;
  /** Send the examples' COOP/COEP headers (examples-config.ts). Default true. */
  crossOriginIsolated?: boolean;
  /** Compile the pages on request with Vite's dev server, exactly as `npm start` serves them, even where a build is there. */
  fromSource?: boolean;
  /** The `Content-Security-Policy` to send with the response for a path (`/assets/engine-worker-….js`), or none. Default: none on any. */
  contentSecurityPolicy?: (path: string) => string | undefined;
  /** Serve the evals page at /evals/ too, as `npm start` does (examples/vite.config.ts). Only with `fromSource`: the builds leave it out. Default false. */
  evals?: boolean;
}

/**
 * Serves the example pages from the config `npm start` uses, on 127.0.0.1 and
 * a free port. In the browser tier the pages come prebuilt (its global setup
 * builds them once per run, runtime/test-support/fixture-builds.ts) and
 * Vite's preview server serves them with the same routes: model files,
 * `/api/chat`, the service worker. With `fromSource`, `FIXTURES=dev` or
 * outside that tier, Vite's dev server compiles them on request.
 */
export async function serveExamples(options: ServeExamplesOptions = {}): Promise<ExamplesServer> {
  const examples = examplesConfig({
    env: options.testModels ? { WEB_AGENTS_TEST_MODELS: "1" } : {},
    argv: [],
    printUrls: false,
    ...(options.chatHandler && { chatHandler: options.chatHandler }),
  });
  if (options.evals && !options.fromSource) throw new Error("serveExamples: evals needs fromSource (the example builds do not hold the evals page).");
  const plugins = [...(examples.plugins ?? []), ...(options.evals ? [serveEvalsPage()] : []), ...(options.contentSecurityPolicy ? [sendPolicy(options.contentSecurityPolicy)] : [])];
  const config = { ...examples, plugins };
  const headers = options.crossOriginIsolated === false ? {} : { ...CROSS_ORIGIN_ISOLATION_HEADERS };
  const stamp = options.fromSource || servesFromSource() ? undefined : process.env[BUILT_FIXTURES_VARIABLE];
  const built = stamp ? currentExamplesBuild(!!options.testModels, stamp) : undefined;
  if (stamp && !built) throw new Error("The example pages were not built for this run (runtime/test-support/build-fixtures-setup.ts builds them); run with FIXTURES=dev to compile them from source.");
  let server: PreviewServer | ViteDevServer;
  if (built) {
    server = await preview({ ...config, configFile: false, logLevel: "error", build: { ...config.build, outDir: built }, preview: { host: "127.0.0.1", port: 0, strictPort: false, headers } });
  } else {
    server = await createServer({ ...config, configFile: false, logLevel: "error", server: { ...config.server, port: 0, strictPort: false, hmr: false, headers } });
    await server.listen();
  }
  const address = server.httpServer?.address() as AddressInfo | string | null;
  if (!address || typeof address === "string") throw new Error("The examples server has no port.");
  return { origin: `http://127.0.0.1:${address.port}`, close: () => server.close() };
}

/** Sends `policy(path)` as the Content-Security-Policy of every response, before any route answers. */
function sendPolicy(policy: (path: string) => string | undefined): Plugin {
  const use = (server: { middlewares: Connect.Server }): void => {
    server.middlewares.use((request, response, next) => {
      const value = policy(new URL(request.url ?? "/", "http://localhost").pathname);
      if (value) response.setHeader("Content-Security-Policy", value);
      next();
    });
  };
  return { name: "web-agents-test-csp", configureServer: use, configurePreviewServer: use };
}
