import { createHash } from "node:crypto";
import { fileURLToPath } from "node:url";
import { createServer, type PluginOption, type ViteDevServer } from "vite";

const repoRoot = fileURLToPath(new URL("../..", import.meta.url));

/**
 * Serves a fixture folder (an index.html and the modules it imports) with
 * Vite on 127.0.0.1 and a free port, so browser tests load the real source.
 * `plugins` can mount server routes, such as a chat handler at /api/chat.
 *
 * Each folder pre-bundles its dependencies into its own cache directory:
 * with one shared `node_modules/.vite`, fixture servers running at the same
 * time (with different `optimizeDeps.include` lists) re-optimized each
 * other's dependencies, and a page reloaded or never got ready.
 */
export async function serveFixture(
  folder: string,
  plugins: PluginOption[] = [],
): Promise<{ url: string; close: () => Promise<void> }> {
  const server: ViteDevServer = await createServer({
    root: folder,
    configFile: false,
    plugins,
    logLevel: "error",
    server: { host: "127.0.0.1", port: 0, strictPort: false, fs: { allow: [repoRoot] }, hmr: false },
    optimizeDeps: { noDiscovery: true, include: [] },
    cacheDir: `${repoRoot}node_modules/.vite/fixtures/${createHash("sha256").update(folder).digest("hex").slice(0, 12)}`,
  });
  await server.listen();
  const address = server.httpServer?.address();
  if (!address || typeof address === "string") throw new Error("The fixture server has no port.");
  return { url: `http://127.0.0.1:${address.port}/`, close: () => server.close() };
}
