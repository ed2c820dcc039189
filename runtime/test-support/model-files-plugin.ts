import { createReadStream, existsSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Plugin } from "vite";

/**
 * Serves the built test models, `<root>/<id>/<path>`, at
 * `/models/test/<id>/resolve/<revision>/<path>` (the hub's layout; any
 * revision, `main` or a pinned commit, serves the same files). Under
 * `/slow-models/` each body trickles over about 3 s (150 pieces, one every
 * 20 ms, at least 1 KB each) whatever its size, so a download can be
 * cancelled midway: the scripted model's 0.46 MB tokenizer as the tiny
 * model's 11 MB one.
 */
export function modelFilesPlugin(root: string): Plugin {
  return {
    name: "model-files",
    configureServer(server) {
      server.middlewares.use((request, response, next) => {
        const match = /^\/(models|slow-models)\/test\/([\w-]+)\/resolve\/[\w.-]+\/(.+)$/.exec(request.url ?? "");
        const file = match && join(root, match[2]!, match[3]!);
        if (!match || !file || !existsSync(file)) return next();
        const size = statSync(file).size;
        response.setHeader("content-length", size);
        response.setHeader("content-type", "application/octet-stream");
        if (match[1] === "models") return void createReadStream(file).pipe(response);
        const stream = createReadStream(file, { highWaterMark: Math.max(1024, Math.ceil(size / 150)) });
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
