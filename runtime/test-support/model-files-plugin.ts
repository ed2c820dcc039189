import { createReadStream, existsSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Plugin } from "vite";

/**
 * Serves the built test models, `<root>/<id>/<path>`, at
 * `/models/test/<id>/resolve/<revision>/<path>` (the hub's layout; any
 * revision, `main` or a pinned commit, serves the same files). Under
 * `/slow-models/` the body trickles (64 KB every 20 ms) so a download can be
 * cancelled midway.
 */
export function modelFilesPlugin(root: string): Plugin {
  return {
    name: "model-files",
    configureServer(server) {
      server.middlewares.use((request, response, next) => {
        const match = /^\/(models|slow-models)\/test\/([\w-]+)\/resolve\/[\w.-]+\/(.+)$/.exec(request.url ?? "");
        const file = match && join(root, match[2]!, match[3]!);
        if (!match || !file || !existsSync(file)) return next();
        response.setHeader("content-length", statSync(file).size);
        response.setHeader("content-type", "application/octet-stream");
        if (match[1] === "models") return void createReadStream(file).pipe(response);
        const stream = createReadStream(file, { highWaterMark: 64 * 1024 });
        stream.on("data", (chunk) => {
          stream.pause();
          response.write(chunk);
          setTimeout(() => stream.resume(), 20);
        });
        stream.on("end", () => response.end());
        response.on("close", () => stream.destroy());
      });
    },
  };
}
