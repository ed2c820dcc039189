// The Field Store as `npm start` serves it (the same Vite config, started in
// process, test models on), in headless Chromium: a person's flow with the
// scripted on-device model, through the real worker and engine.
import { mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Browser, Page } from "playwright-core";
import { createServer, type ViteDevServer } from "vite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureTestModel } from "../../models/test-models/index.js";
import { STORE_SCRIPTED_ANSWER, storeScriptedModel, storeScriptedQwen35Model } from "../../models/test-models/example-scripted-models.js";
import { launchChromium } from "../../runtime/test-support/launch-chromium.js";
import { CROSS_ORIGIN_ISOLATION_HEADERS, examplesConfig } from "../examples-config.js";

const results = fileURLToPath(new URL("../../test-results/", import.meta.url));

describe("Field Store with the scripted on-device model", () => {
  let server: ViteDevServer;
  let browser: Browser;
  let origin: string;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    mkdirSync(results, { recursive: true });
    await ensureTestModel(storeScriptedModel());
    await ensureTestModel(storeScriptedQwen35Model());
    server = await createServer({
      configFile: false,
      ...examplesConfig({ env: { WEB_AGENTS_TEST_MODELS: "1" }, argv: [], printUrls: false }),
      logLevel: "error",
      server: { host: "127.0.0.1", port: 0, hmr: false, headers: { ...CROSS_ORIGIN_ISOLATION_HEADERS } },
    });
    await server.listen();
    origin = `http://127.0.0.1:${(server.httpServer!.address() as { port: number }).port}`;
    browser = await launchChromium({ webmcp: true });
    page = await browser.newPage({ viewport: { width: 1280, height: 760 } });
    page.on("pageerror", (error) => errors.push(error.message));
    page.on("console", (message) => {
      if (message.type() === "error") errors.push(message.text());
    });
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const chat = () => page.locator("#chat [data-web-agents-ui]");

  it("shops: navigates to a product, adds it, parks place_order on the person's click, and lists the order", async () => {
    await page.goto(`${origin}/field-store/?model=test-store-scripted`);
    await page.waitForSelector("body[data-ready=true]");
    // COOP/COEP from examples-config.ts: the engine may run WASM threads here.
    expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
    expect(await page.textContent("#cart-badge")).toBe("0");
    await page.screenshot({ path: `${results}field-store-home.png` });

    await page.click("#open-chat");
    // The scripted model is not on this device yet: the download card.
    const download = chat().locator("button", { hasText: /Download/ });
    await download.waitFor({ timeout: 30_000 });
    await page.screenshot({ path: `${results}field-store-download-card.png` });
    await download.click();
    const composer = chat().locator("textarea");
    await expect.poll(() => composer.isEnabled(), { timeout: 60_000 }).toBe(true);

    await composer.fill("Buy me a pair of trail socks");
    await composer.press("Enter");

    const parked = chat().locator('.tool[data-tool="place_order"][data-state="awaiting-confirmation"]');
    await parked.waitFor({ timeout: 60_000 });
    expect(page.url()).toMatch(/#\/cart$/);
    expect(await page.textContent("#cart-badge")).toBe("1");
    expect(await chat().locator('.tool[data-tool="add_to_cart"]').getAttribute("data-state")).toBe("done");
    await page.screenshot({ path: `${results}field-store-parked.png` });

    // It waits for the person.
    await page.waitForTimeout(500);
    expect(await parked.count()).toBe(1);
    await page.click("#place-order");
    await chat().getByText(STORE_SCRIPTED_ANSWER).waitFor({ timeout: 30_000 });
    expect(await page.textContent("#cart-badge")).toBe("0");
    await page.screenshot({ path: `${results}field-store-chat.png` });

    await page.click('[data-nav="orders"]');
    const order = page.locator('[data-order="FS-1001"]');
    await order.waitFor();
    expect(await order.textContent()).toContain("Trail socks × 1");
    await page.screenshot({ path: `${results}field-store-orders.png` });

    // The cart and the orders persist.
    await page.reload();
    await page.waitForSelector('[data-order="FS-1001"]');
    expect(errors).toEqual([]);
  }, 240_000);

  it("shops the same way on a Qwen3.5-format model: XML calls read in the worker, typed parameters, the order placed on the person's click, usage shown", async () => {
    await page.evaluate(() => localStorage.clear());
    await page.goto(`${origin}/field-store/?model=test-store-scripted-qwen35`);
    await page.waitForSelector("body[data-ready=true]");
    await page.click("#open-chat");
    await chat().locator("button", { hasText: /Download/ }).click({ timeout: 30_000 });
    const composer = chat().locator("textarea");
    await expect.poll(() => composer.isEnabled(), { timeout: 60_000 }).toBe(true);
    await composer.fill("Buy me a pair of trail socks");
    await composer.press("Enter");
    await chat().locator('.tool[data-tool="place_order"][data-state="awaiting-confirmation"]').waitFor({ timeout: 60_000 });
    expect(await page.textContent("#cart-badge")).toBe("1");
    await page.click("#place-order");
    await chat().getByText(STORE_SCRIPTED_ANSWER).waitFor({ timeout: 30_000 });
    const usage = chat().locator("[data-usage]");
    await usage.waitFor({ timeout: 10_000 });
    expect(await usage.textContent()).toMatch(/^\d+ tokens in.* · \d+ out/);
    await page.screenshot({ path: `${results}field-store-qwen35-chat.png` });
    expect(errors).toEqual([]);
  }, 240_000);
});
