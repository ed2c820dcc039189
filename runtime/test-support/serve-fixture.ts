import { createHash } from "node:crypto";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { createServer, preview, type Plugin, type PluginOption, type PreviewServer, type ViteDevServer } from "vite";
import { BUILT_FIXTURES_VARIABLE, currentBuild, servesFromSource } from "./fixture-builds.js";

const repoRoot = fileURLToPath(new URL("../..", import.meta.url));

/**
 * Serves a fixture folder (an index.html and the modules it imports) on
 * 127.0.0.1 and a free port. `plugins` can mount server routes, such as a
 * chat handler at /api/chat.
 *
 * In the browser tier the page comes prebuilt: its global setup built every
 * fixture page once for the run (runtime/test-support/fixture-builds.ts), and
 * Vite's preview server serves the build, with each plugin's routes
 * (`configureServer`) mounted on it. Outside it (a bench) or with
 * `FIXTURES=dev`, Vite's dev server compiles the source on request. Each dev server
 * pre-bundles into its own cache directory: with one shared
 * `node_modules/.vite`, servers running at once re-optimized each other's
 * dependencies, and a page reloaded or never got ready.
 */
export async function serveFixture(folder: string, plugins: PluginOption[] = []): Promise<{ url: string; close: () => Promise<void> }> {
  const stamp = servesFromSource() ? undefined : process.env[BUILT_FIXTURES_VARIABLE];
  const built = stamp ? currentBuild(folder, stamp) : undefined;
  if (stamp && !built) {
    throw new Error(
      `The fixture page ${folder} was not built for this run: the browser tier builds folders test-fixtures/<name>/ with an index.html under runtime/, worker/, models/ or widget/ (runtime/test-support/fixture-builds.ts). Move it there, or run with FIXTURES=dev.`,
    );
  }
  const server = built ? await servePrebuilt(folder, built, plugins) : await serveSource(folder, plugins);
  const address = server.httpServer?.address() as AddressInfo | string | null;
  if (!address || typeof address === "string") throw new Error("The fixture server has no port.");
  return { url: `http://127.0.0.1:${address.port}/`, close: () => server.close() };
}

async function serveSource(folder: string, plugins: PluginOption[]): Promise<ViteDevServer> {
  const server = await createServer({
    root: folder,
    configFile: false,
    plugins,
    logLevel: "error",
    server: { host: "127.0.0.1", port: 0, strictPort: false, fs: { allow: [repoRoot] }, hmr: false },
    optimizeDeps: { noDiscovery: true, include: [] },
    cacheDir: `${repoRoot}node_modules/.vite/fixtures/${createHash("sha256").update(folder).digest("hex").slice(0, 12)}`,
  });
  await server.listen();
  return server;
}

async function servePrebuilt(folder: string, outDir: string, plugins: PluginOption[]): Promise<PreviewServer> {
  return preview({
    root: folder,
    configFile: false,
    plugins: (await flatPlugins(plugins)).map(withPreviewRoutes),
    logLevel: "error",
    build: { outDir },
    preview: { host: "127.0.0.1", port: 0, strictPort: false },
  });
}

/** A plugin whose routes are mounted on the dev server mounts them on the preview server too (they use only `server.middlewares`). */
function withPreviewRoutes(plugin: Plugin): Plugin {
  const configure = plugin.configureServer;
  if (plugin.configurePreviewServer || typeof configure !== "function") return plugin;
  return { ...plugin, configurePreviewServer: (server) => configure.call(undefined as never, server as unknown as ViteDevServer) as void };
}

async function flatPlugins(options: PluginOption[]): Promise<Plugin[]> {
  const plugins: Plugin[] = [];
  for (const option of options) {
    const value = await option;
    if (Array.isArray(value)) plugins.push(...(await flatPlugins(value)));
    else if (value) plugins.push(value as Plugin);
  }
  return plugins;
}
