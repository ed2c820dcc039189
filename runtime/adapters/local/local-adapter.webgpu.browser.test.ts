import { describe, expect, it } from "vitest";
import { FALLBACK_ADAPTER_NOTE } from "../../../models/resolve-variant.js";
import { buySocks, downloadAndBuySocks, open, setUp, waitFor } from "./test-fixtures/browser-harness.js";
import { ONE_MODEL_PAGE_MS } from "../../test-support/model-test-timeouts.js";
import { sharedWorkerTargets } from "../../test-support/shared-worker-targets.js";

// WebGPU through SwiftShader (--enable-unsafe-webgpu): no shader-f16, so the
// fp32 test model is the one that runs; the probe must pick its webgpu variant.
describe("createLocalAdapter in headless Chromium on webgpu (SwiftShader): real worker, transformers.js, page tools", () => {
  const state = setUp(true);

  it("downloads with progress, loads on webgpu, and runs the scripted two-step tool loop against add_to_cart", () => downloadAndBuySocks(state, "webgpu"), ONE_MODEL_PAGE_MS);

  it("in the origin's SharedWorker (worker.shared): the worker finds WebGPU, downloads and loads the webgpu variant, and runs the tool loop on it", async () => {
    const context = await state.browser.newContext();
    try {
      const page = await open(context, state.server.url);
      await page.evaluate(() => harness.start({ model: "test-scripted", baseUrl: "/models/test", device: "webgpu", shared: true }));
      // The probe ran in the shared worker: it saw WebGPU and its (software) adapter, so only the webgpu variant is offered.
      const waiting = await waitFor(page, () => harness.status(), (status) => status.state !== "loading", "the probe");
      expect(waiting).toMatchObject({ state: "needs-download", note: FALLBACK_ADAPTER_NOTE });
      await page.evaluate(() => harness.prepare());
      expect(await page.evaluate(() => harness.manifestKeys())).toEqual(["test-scripted/webgpu-fp32"]);
      expect(await sharedWorkerTargets(state.browser)).toHaveLength(1);
      expect(page.workers()).toHaveLength(0);
      await buySocks(page, 0);
      await page.close();
    } finally {
      await context.close();
    }
  }, ONE_MODEL_PAGE_MS);
});
