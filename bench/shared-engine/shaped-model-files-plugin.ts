import { createReadStream, existsSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Plugin } from "vite";
import { SHAPED_WEIGHTS } from "./shared-bench-models.js";

/**
 * Serves the 0.6B-shaped model's folder, `<root>/<id>/<path>`, at
 * `/models/test/<id>/resolve/<revision>/<path>`, and its
 * `onnx/model_quantized.onnx` where the page asks for `onnx/model.onnx`
 * (it goes in behind the fixture page's fp32 catalog entry). The test
 * support's modelFilesPlugin takes ids without a dot only.
 */
export function shapedModelFilesPlugin(root: string, id: string): Plugin {
  const prefix = `/models/test/${id}/resolve/`;
  return {
    name: "shaped-model-files",
    configureServer(server) {
      server.middlewares.use((request, response, next) => {
        const url = request.url ?? "";
        const path = url.startsWith(prefix) ? url.slice(prefix.length).split("/").slice(1).join("/") : "";
        if (!path || path.split("/").includes("..")) return next();
        const file = join(root, id, path === SHAPED_WEIGHTS.asked ? SHAPED_WEIGHTS.served : path);
        if (!existsSync(file)) return next();
        response.setHeader("content-length", statSync(file).size);
        response.setHeader("content-type", "application/octet-stream");
        createReadStream(file).pipe(response);
      });
    },
  };
}
