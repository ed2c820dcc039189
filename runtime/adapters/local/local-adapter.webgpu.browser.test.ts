import { describe, it } from "vitest";
import { downloadAndBuySocks, setUp } from "./test-fixtures/browser-harness.js";
import { ONE_MODEL_PAGE_MS } from "../../test-support/model-test-timeouts.js";

// WebGPU through SwiftShader (--enable-unsafe-webgpu): no shader-f16, so the
// fp32 test model is the one that runs; the probe must pick its webgpu variant.
describe("createLocalAdapter in headless Chromium on webgpu (SwiftShader): real worker, transformers.js, page tools", () => {
  const state = setUp(true);

  it("downloads with progress, loads on webgpu, and runs the scripted two-step tool loop against add_to_cart", () => downloadAndBuySocks(state, "webgpu"), ONE_MODEL_PAGE_MS);
});
