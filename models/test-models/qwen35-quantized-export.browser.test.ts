import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import onnxProto from "onnx-proto";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "../../runtime/test-support/launch-chromium.js";
import { modelFilesPlugin } from "../../runtime/test-support/model-files-plugin.js";
import { PAGE_READY_MS } from "../../runtime/test-support/page-ready.js";
import { serveFixture } from "../../runtime/test-support/serve-fixture.js";
import { ensureTestModel, type EnsuredTestModel } from "./ensure-test-model.js";
import { HUB_QUANTIZED_FILES, qwen35HubQuantizedModel } from "./qwen35-hub-export.js";
import type { HubPageResult } from "./test-fixtures/qwen35-hub-page/main.js";
import { ONE_MODEL_PAGE_MS } from "../../runtime/test-support/model-test-timeouts.js";

// Does the hub's Qwen3.5 `quantized` (q8) build run on ONNX Runtime Web's
// WASM backend? A tiny random-weight model exported the same way (the
// multimodal embed_tokens + decoder_model_merged sessions, 8-bit block
// weights through com.microsoft GatherBlockQuantized and MatMulNBits,
// external data in `_data` + `_data_1`), loaded by transformers.js in
// headless Chromium on WASM:
// - with the wasm build transformers.js 4.3 uses and the engine worker
//   serves (asyncify, ORT_WASM_PATHS), embed_tokens fails: that build has no
//   CPU kernel for GatherBlockQuantized (the decoder alone loads);
// - with onnxruntime-web's plain WASM build, both load and it generates.
// Size is the second wall, not tested here (multi-GB builds): at the 2B's
// shapes the plain build loads 2.79 GB into the wasm32 heap, then the first
// forward pass fails with std::bad_alloc, because MatMulNBits on WASM
// dequantizes each weight matrix to float32 per call and the LM head's copy
// is 2.03 GB; the 4B's 5.6 GB cannot load at all
// (bench/qwen35-hub-quantized-size.ts reproduces both).
const { onnx } = onnxProto;
const fixture = fileURLToPath(new URL("./test-fixtures/qwen35-hub-page/", import.meta.url));

type RunOptions = { id: string; dtype: "q8"; prompt: string; maxNewTokens: number };
declare global {
  // eslint-disable-next-line no-var
  var qwen35Hub: {
    build: "asyncify" | "plain";
    run(options: RunOptions): Promise<HubPageResult>;
    createSession(id: string, path: string, data: string[]): Promise<{ inputNames?: string[]; error?: string }>;
  };
}

/** ONNX Runtime's exact refusal, for a node named as this project's builder names it. */
const NO_GATHER_BLOCK_QUANTIZED =
  "Can't create a session. ERROR_CODE: 9, ERROR_MESSAGE: Could not find an implementation for GatherBlockQuantized(1) node with name 'GatherBlockQuantized_0'";

/** `domain/opType` of every node in an ONNX file. */
function opTypes(path: string): Set<string> {
  const model = onnx.ModelProto.decode(readFileSync(path));
  return new Set(model.graph!.node!.map((node) => `${node.domain || "ai.onnx"}/${node.opType}`));
}

describe("the hub-layout Qwen3.5 quantized export on ONNX Runtime Web's WASM backend", () => {
  let model: EnsuredTestModel;
  let browser: Browser;
  let server: Awaited<ReturnType<typeof serveFixture>>;

  /**
   * A fresh page on one wasm build (ONNX Runtime keeps the first build it
   * starts for the page's life), and the .wasm files it fetched.
   */
  async function openPage(build: "asyncify" | "plain"): Promise<{ page: Page; wasmFiles: Set<string> }> {
    const page = await browser.newPage();
    const wasmFiles = new Set<string>();
    page.on("request", (request) => {
      // ONNX Runtime fetches its binary; the page's `?url` imports of both are scripts, not fetches.
      const file = new URL(request.url()).pathname.split("/").pop()!;
      if (file.endsWith(".wasm") && request.resourceType() === "fetch") wasmFiles.add(file);
    });
    page.on("pageerror", (error) => console.error("[page]", error.message));
    await page.goto(`${server.url}?wasm=${build}`);
    await page.waitForSelector("body[data-ready=true]", { state: "attached", timeout: PAGE_READY_MS });
    expect(await page.evaluate(() => qwen35Hub.build)).toBe(build);
    return { page, wasmFiles };
  }

  beforeAll(async () => {
    model = await ensureTestModel(qwen35HubQuantizedModel());
    [browser, server] = await Promise.all([launchChromium(), serveFixture(fixture, [modelFilesPlugin(join(model.folder, ".."))])]);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it("is laid out as the hub's: two sessions, 8-bit block ops, the LM head in _data_1", () => {
    const paths = model.manifest.files.map((file) => file.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        HUB_QUANTIZED_FILES.embedTokens,
        `${HUB_QUANTIZED_FILES.embedTokens}_data`,
        HUB_QUANTIZED_FILES.decoder,
        `${HUB_QUANTIZED_FILES.decoder}_data`,
        `${HUB_QUANTIZED_FILES.decoder}_data_1`,
      ]),
    );
    expect([...opTypes(join(model.folder, HUB_QUANTIZED_FILES.embedTokens))]).toEqual(["com.microsoft/GatherBlockQuantized"]);
    expect(opTypes(join(model.folder, HUB_QUANTIZED_FILES.decoder))).toContain("com.microsoft/MatMulNBits");
    const bytes = (path: string): number => model.manifest.files.find((file) => file.path === path)!.bytes;
    // The hub's fingerprint: the decoder's last chunk (its LM head) is exactly the embedding's size.
    expect(bytes(`${HUB_QUANTIZED_FILES.decoder}_data_1`)).toBe(bytes(`${HUB_QUANTIZED_FILES.embedTokens}_data`));
  });

  it("fails to load on the engine's wasm build (asyncify): no GatherBlockQuantized kernel, though the decoder alone loads", async () => {
    const { page, wasmFiles } = await openPage("asyncify");
    const id = model.manifest.id;
    const decoder = await page.evaluate(
      ([id, path]) => qwen35Hub.createSession(id, path, [`${path}_data`, `${path}_data_1`]),
      [id, HUB_QUANTIZED_FILES.decoder] as const,
    );
    expect(decoder.error).toBeUndefined();
    expect(decoder.inputNames).toContain("inputs_embeds");
    const embedTokens = await page.evaluate(([id, path]) => qwen35Hub.createSession(id, path, [`${path}_data`]), [id, HUB_QUANTIZED_FILES.embedTokens] as const);
    expect(embedTokens.error).toBe(NO_GATHER_BLOCK_QUANTIZED);
    const result = await page.evaluate((id) => qwen35Hub.run({ id, dtype: "q8", prompt: "Hi", maxNewTokens: 4 }), id);
    expect(result.error).toBe(NO_GATHER_BLOCK_QUANTIZED);
    expect([...wasmFiles]).toEqual(["ort-wasm-simd-threaded.asyncify.wasm"]);
    await page.close();
  }, ONE_MODEL_PAGE_MS);

  it("loads as Qwen3_5ForCausalLM and generates on onnxruntime-web's plain wasm build", async () => {
    const { page, wasmFiles } = await openPage("plain");
    const result = await page.evaluate((id) => qwen35Hub.run({ id, dtype: "q8", prompt: "Hi", maxNewTokens: 6 }), model.manifest.id);
    expect(result.error).toBeUndefined();
    expect(result.modelClass).toBe("Qwen3_5ForCausalLM");
    expect(result.sessions).toEqual(["embed_tokens", "decoder_model_merged"]);
    expect(result.decoderInputs).toContain("inputs_embeds");
    expect(result.decoderInputs).not.toContain("num_logits_to_keep");
    expect(result.tokens).toHaveLength(6);
    expect([...wasmFiles]).toEqual(["ort-wasm-simd-threaded.wasm"]);
    await page.close();
  }, 60_000);
});
