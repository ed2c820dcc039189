#!/usr/bin/env node
// `npm start [-- --test-models] [-- --models-dir=/path]`: the examples server
// (examples/vite.config.ts, which reads these flags and WEB_AGENTS_TEST_MODELS,
// WEB_AGENTS_MODELS_DIR), its URLs printed once it listens.
import { fileURLToPath } from "node:url";
import { createServer } from "vite";

const server = await createServer({ configFile: fileURLToPath(new URL("./vite.config.ts", import.meta.url)) });
await server.listen();
server.printUrls();
server.bindCLIShortcuts({ print: true });
