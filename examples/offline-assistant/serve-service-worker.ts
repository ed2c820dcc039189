import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Connect, Plugin } from "vite";

const file = fileURLToPath(new URL("./sw.js", import.meta.url));

/**
 * Serves the offline assistant's service worker as plain JavaScript with
 * `Service-Worker-Allowed: /`: its scope is the whole origin, because the
 * engine worker's script (and the modules it imports) lives outside
 * /offline-assistant/ and must come from the cache offline too.
 */
export function serveServiceWorker(): Plugin {
  const handle: Connect.NextHandleFunction = (request, response, next) => {
    if ((request.url ?? "").split("?")[0] !== "/offline-assistant/sw.js") return next();
    response.setHeader("content-type", "text/javascript");
    response.setHeader("service-worker-allowed", "/");
    response.setHeader("cache-control", "no-cache");
    response.end(readFileSync(file));
  };
  return {
    name: "web-agents-offline-service-worker",
    configureServer: (server) => void server.middlewares.use(handle),
    configurePreviewServer: (server) => void server.middlewares.use(handle),
  };
}
