import type { AddressInfo } from "node:net";
import { createServer, preview, type PreviewServer, type ViteDevServer } from "vite";
import { CROSS_ORIGIN_ISOLATION_HEADERS, examplesConfig } from "../../examples/examples-config.js";
import { BUILT_FIXTURES_VARIABLE, currentEvalsPageBuild, servesFromSource } from "../../runtime/test-support/fixture-builds.js";
import { EVALS_PATH, serveEvalsPage } from "./serve-evals-page.js";

/** The evals page served for one test file. */
export interface EvalsServer {
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  origin: string;
  close(): Promise<void>;
}

/**
 * Serves the evals page on npm start's config, on 127.0.0.1 and a free port.
 * In the browser tier the page comes prebuilt (its global setup builds it
 * once per run, runtime/test-support/fixture-builds.ts) and Vite's preview
 * server serves it at the same path with the same routes, so no test waits
 * for the dev server to compile and pre-bundle it on a new machine's first
 * request. With `FIXTURES=dev` or outside that tier, Vite's dev server
 * compiles it on request, as `npm start` does.
 */
export async function serveEvalsForTests(): Promise<EvalsServer> {
  const config = examplesConfig({ argv: [], env: {}, printUrls: false });
  const plugins = [...(config.plugins ?? []), serveEvalsPage()];
  const headers = { ...CROSS_ORIGIN_ISOLATION_HEADERS };
  const stamp = servesFromSource() ? undefined : process.env[BUILT_FIXTURES_VARIABLE];
  const built = stamp ? currentEvalsPageBuild(stamp) : undefined;
  if (stamp && !built) throw new Error("The evals page was not built for this run (runtime/test-support/build-fixtures-setup.ts builds it); run with FIXTURES=dev to compile it from source.");
  let server: PreviewServer | ViteDevServer;
  if (built) {
    server = await preview({ ...config, plugins, base: EVALS_PATH, configFile: false, logLevel: "error", build: { outDir: built }, preview: { host: "127.0.0.1", port: 0, strictPort: false, headers } });
  } else {
    server = await createServer({ ...config, plugins, configFile: false, logLevel: "error", server: { ...config.server, port: 0, strictPort: false, hmr: false, headers } });
    await server.listen();
  }
  const address = server.httpServer?.address() as AddressInfo | string | null;
  if (!address || typeof address === "string") throw new Error("The evals server has no port.");
  return { origin: `http://127.0.0.1:${address.port}`, close: () => server.close() };
}
