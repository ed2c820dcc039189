import { defineConfig } from "vite";
import { examplesConfig } from "./examples-config.js";

/**
 * `npm start`: the example pages and `/api/chat` on http://127.0.0.1:5173.
 * `WEB_AGENTS_TEST_MODELS=1` offers the project's test models on the device;
 * `WEB_AGENTS_MODELS_DIR=/path` serves the Qwen models from a local folder
 * in the hub's layout instead of the model hub.
 */
export default defineConfig(examplesConfig());
