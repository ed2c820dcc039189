/**
 * Does a Qwen3.5 `quantized` build the size of the hub's 2B (or 4B) load and
 * generate on ONNX Runtime Web's WASM backend in headless Chromium? Builds a
 * random-weight model with the hub's exact layout and tensor shapes
 * (models/test-models/qwen35-hub-export.ts) into .cache/models/, loads it
 * through transformers.js on the fixture page
 * models/test-models/test-fixtures/qwen35-hub-page/, and prints one JSON
 * line: load time, the wasm heap after loading and at the end, per-token
 * times or the exact error, and the renderer's peak resident memory. The
 * multi-GB build is deleted afterwards unless `--keep`. Not part of `npm test`.
 *
 *   node -e 'import("vite").then((vite) => vite.runnerImport("bench/qwen35-hub-quantized-size.ts"))' -- \
 *     [--shape 2b|4b|0.8b|tiny] [--wasm plain|asyncify] [--tokens 4] [--format hub|project-q8] [--keep]
 *
 * `--format project-q8` builds the same shapes in this project's own q8
 * format instead (one `qwen3_5_text` session, int8 MatMulInteger), for a
 * decode-speed comparison.
 */
import { execFileSync } from "node:child_process";
import { rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { launchChromium } from "../runtime/test-support/launch-chromium.js";
import { modelFilesPlugin } from "../runtime/test-support/model-files-plugin.js";
import { PAGE_READY_MS } from "../runtime/test-support/page-ready.js";
import { serveFixture } from "../runtime/test-support/serve-fixture.js";
import { DEFAULT_MODELS_ROOT, ensureTestModel } from "../models/test-models/ensure-test-model.js";
import { qwen35HubQuantizedModel } from "../models/test-models/qwen35-hub-export.js";
import { QWEN35_0_8B_SHAPE, QWEN35_2B_SHAPE, QWEN35_4B_SHAPE, QWEN35_VOCAB_SIZE, TINY_QWEN35_SHAPE, type Qwen35Shape } from "../models/test-models/qwen35-shape.js";
import { qwen35ShapedModel } from "../models/test-models/qwen35-shaped-model.js";
import type { HubPageResult } from "../models/test-models/test-fixtures/qwen35-hub-page/main.js";

const fixture = fileURLToPath(new URL("../models/test-models/test-fixtures/qwen35-hub-page/", import.meta.url));

function argument(name: string, fallback: string): string {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 && process.argv[index + 1] ? process.argv[index + 1]! : fallback;
}

/** Resident bytes of Chromium's renderer processes (the page's wasm heap and its JS copies of the files live there). */
function rendererResidentBytes(): number {
  const lines = execFileSync("ps", ["-eo", "rss=,args="], { encoding: "utf8" }).split("\n");
  return lines.filter((line) => line.includes("--type=renderer")).reduce((sum, line) => sum + Number(line.trim().split(/\s+/)[0]) * 1024, 0);
}

const shapeName = argument("shape", "2b");
const wasm = argument("wasm", "plain") === "asyncify" ? "asyncify" : "plain";
const tokens = Number(argument("tokens", "4"));
const format = argument("format", "hub") === "project-q8" ? "project-q8" : "hub";
const SHAPES: Record<string, Qwen35Shape> = {
  tiny: TINY_QWEN35_SHAPE,
  // The 0.8B's layers with Qwen3.5's real vocabulary: small enough that its LM head's dequantized copy fits the heap.
  "0.8b": { ...QWEN35_0_8B_SHAPE, vocabSize: QWEN35_VOCAB_SIZE },
  "2b": QWEN35_2B_SHAPE,
  "4b": QWEN35_4B_SHAPE,
};
const shape = SHAPES[shapeName] ?? QWEN35_2B_SHAPE;
// Model ids are served as [\w-]+ (model-files-plugin.ts): no dots.
const idShape = shapeName.replace(".", "");
const id = format === "hub" ? `qwen35-${idShape}-hub-quantized` : `qwen35-${idShape}-shaped-q8`;
const definition = format === "hub" ? qwen35HubQuantizedModel({ id, shape }) : qwen35ShapedModel("q8", { id, shape });

console.error(`${id}: building ...`);
const built = await ensureTestModel(definition);
console.error(`${id}: ${built.built ? `built in ${(built.buildMs / 1000).toFixed(1)} s` : "up to date"}, ${(built.manifest.totalBytes / 1e9).toFixed(3)} GB`);

const [browser, server] = await Promise.all([launchChromium({ optimizeWasm: true }), serveFixture(fixture, [modelFilesPlugin(DEFAULT_MODELS_ROOT)])]);
let peakResident = 0;
const sampler = setInterval(() => (peakResident = Math.max(peakResident, rendererResidentBytes())), 500);
try {
  const page = await browser.newPage();
  page.on("pageerror", (error) => console.error("[page]", error.message));
  page.on("console", (message) => console.error("[console]", message.text().slice(0, 500)));
  await page.goto(`${server.url}?wasm=${wasm}`);
  await page.waitForSelector("body[data-ready=true]", { state: "attached", timeout: PAGE_READY_MS });
  const result = (await page.evaluate(
    (options) => (globalThis as unknown as { qwen35Hub: { run(options: unknown): Promise<HubPageResult> } }).qwen35Hub.run(options),
    { id, dtype: "q8", prompt: "Hi", maxNewTokens: tokens },
  )) as HubPageResult;
  const decode = result.tokenMs?.slice(1) ?? [];
  console.log(
    JSON.stringify({
      id,
      wasm,
      files: built.manifest.files.filter((file) => file.path.startsWith("onnx/")).map((file) => [file.path, file.bytes]),
      ...result,
      decodeTokensPerSecond: decode.length > 0 ? decode.length / (decode.reduce((sum, ms) => sum + ms, 0) / 1000) : null,
      peakRendererResidentBytes: peakResident,
    }),
  );
} finally {
  clearInterval(sampler);
  await browser.close();
  await server.close();
  if (!process.argv.includes("--keep")) rmSync(built.folder, { recursive: true, force: true });
}
