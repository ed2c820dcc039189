import { defineConfig } from "vite";
import { serveEvalsPage } from "../bench/evals/serve-evals-page.js";
import { examplesConfig } from "./examples-config.js";

const config = examplesConfig();

/**
 * `npm start`: the example pages and `/api/chat` on http://127.0.0.1:5173,
 * and the evals page at /evals/ (bench/evals/, on the test models).
 * `WEB_AGENTS_TEST_MODELS=1` offers the project's test models on the device;
 * `WEB_AGENTS_MODELS_DIR=/path` serves the Qwen models from a local folder
 * in the hub's layout instead of the model hub.
 */
export default defineConfig({ ...config, plugins: [...(config.plugins ?? []), serveEvalsPage()] });
