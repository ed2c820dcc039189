import { fileURLToPath } from "node:url";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureTestModel, scriptedModel } from "../../../models/test-models/index.js";
import { crossOriginIsolation } from "../../test-support/cross-origin-isolation.js";
import { launchChromium } from "../../test-support/launch-chromium.js";
import { modelFilesPlugin } from "../../test-support/model-files-plugin.js";
import { serveFixture } from "../../test-support/serve-fixture.js";
import { buySocks, open, step } from "./test-fixtures/browser-harness.js";
import { ONE_MODEL_PAGE_MS } from "../../test-support/model-test-timeouts.js";

const fixture = fileURLToPath(new URL("./test-fixtures/local-page/", import.meta.url));

describe("createLocalAdapter's WASM threads in headless Chromium: the real worker, transformers.js and ONNX Runtime", () => {
  let browser: Browser;
  let context: BrowserContext;
  /** The same page, served with COOP/COEP (cross-origin isolated) and without. */
  let isolated: Awaited<ReturnType<typeof serveFixture>>;
  let plain: Awaited<ReturnType<typeof serveFixture>>;

  beforeAll(async () => {
    const scripted = await ensureTestModel(scriptedModel());
    const root = join(scripted.folder, "..");
    [browser, isolated, plain] = await Promise.all([
      launchChromium(),
      serveFixture(fixture, [modelFilesPlugin(root), crossOriginIsolation()]),
      serveFixture(fixture, [modelFilesPlugin(root)]),
    ]);
    context = await browser.newContext();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await Promise.all([isolated?.close(), plain?.close()]);
  });

  /** Starts the adapter on the scripted model, downloads and loads it, and runs the two-step tool loop. */
  async function answer(page: Page, threads?: number): Promise<number[]> {
    await page.evaluate((threads) => harness.start({ model: "test-scripted", baseUrl: "/models/test", ...(threads !== undefined && { threads }) }), threads);
    await page.evaluate(() => harness.prepare());
    await buySocks(page, 0);
    const usages = await page.evaluate(() => harness.usages());
    expect(usages).toHaveLength(2);
    return usages.map((usage) => usage.threads!);
  }

  it("on a cross-origin isolated page, runs the threads asked for, and the chat answers", async () => {
    const page = await open(context, isolated.url);
    expect(await page.evaluate(() => harness.crossOriginIsolated())).toBe(true);
    expect(await answer(page, 2)).toEqual([2, 2]);
    step("isolated: 2 threads, answered");
    await page.close();
  }, ONE_MODEL_PAGE_MS);

  it("on a cross-origin isolated page, defaults to min(4, cores - 1), at least 1", async () => {
    const page = await open(context, isolated.url);
    const cores = await page.evaluate(() => navigator.hardwareConcurrency);
    const expected = Math.max(1, Math.min(4, cores - 1));
    expect(await answer(page)).toEqual([expected, expected]);
    step(`isolated, default: ${expected} threads on ${cores} cores, answered`);
    await page.close();
  }, 60_000);

  it("on a page that is not isolated, runs one thread even when more are asked for, and the chat answers", async () => {
    const page = await open(context, plain.url);
    expect(await page.evaluate(() => harness.crossOriginIsolated())).toBe(false);
    expect(await answer(page, 4)).toEqual([1, 1]);
    step("not isolated: 1 thread, answered");
    await page.close();
  }, ONE_MODEL_PAGE_MS);
});
