import { fileURLToPath } from "node:url";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "../runtime/test-support/launch-chromium.js";
import { serveFixture } from "../runtime/test-support/serve-fixture.js";
import type { DeviceCapabilities } from "./protocol.js";
import { PAGE_READY_MS } from "../runtime/test-support/page-ready.js";

const fixture = fileURLToPath(new URL("./test-fixtures/cache-page/", import.meta.url));

describe.each([
  { webgpu: false, name: "without WebGPU" },
  { webgpu: true, name: "with --enable-unsafe-webgpu (SwiftShader)" },
])("the capability probe in headless Chromium $name", ({ webgpu }) => {
  let browser: Browser;
  let server: Awaited<ReturnType<typeof serveFixture>>;
  beforeAll(async () => {
    [browser, server] = await Promise.all([launchChromium({ webgpu }), serveFixture(fixture)]);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it("reports the adapter, f16, limits and storage on the page and in the worker", async () => {
    const page = await browser.newPage();
    await page.goto(server.url);
    await page.waitForSelector("body[data-ready=true]", { state: "attached", timeout: PAGE_READY_MS });
    const [onPage, inWorker] = await page.evaluate(async () => {
      const harness = (window as any).harness;
      return [await harness.probeCapabilities(), await harness.client.probe()] as DeviceCapabilities[];
    });
    for (const capabilities of [onPage!, inWorker!]) {
      expect(capabilities.webgpu).toBe(webgpu);
      expect(capabilities.shaderF16).toBe(false);
      expect(capabilities.fallbackAdapter).toBe(webgpu);
      expect(capabilities.cores).toBeGreaterThan(0);
      expect(capabilities.crossOriginIsolated).toBe(false);
      expect(capabilities.storageQuota).toBeGreaterThan(0);
      if (webgpu) expect(capabilities.maxBufferSize).toBeGreaterThanOrEqual(256 * 1024 * 1024);
      else expect(capabilities.maxBufferSize).toBeUndefined();
    }
    await page.close();
  }, 60_000);
});
