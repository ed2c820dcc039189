// The examples as a site ships them: `vite build` of the same config `npm
// start` serves, then `vite preview` (npm run examples:preview), in headless
// Chromium. Every page loads; the Field Store's scripted on-device model calls
// its tools through the built engine worker; and the offline assistant
// downloads once, then, after a reload with the network off and the server
// gone, its service worker serves the built page and engine and it answers.
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { build, preview, type PreviewServer } from "vite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureTestModel } from "../models/test-models/index.js";
import { ASSISTANT_SCRIPTED_ANSWER, assistantScriptedModel, STORE_SCRIPTED_ANSWER, storeScriptedModel } from "../models/test-models/example-scripted-models.js";
import { launchChromium } from "../runtime/test-support/launch-chromium.js";
import { examplesConfig } from "./examples-config.js";
import { PAGE_READY_MS } from "../runtime/test-support/page-ready.js";

describe("the examples' production build (vite build + vite preview)", () => {
  const outDir = mkdtempSync(join(tmpdir(), "web-agents-examples-"));
  const config = () => ({ configFile: false as const, ...examplesConfig({ env: { WEB_AGENTS_TEST_MODELS: "1" }, argv: [], printUrls: false }), logLevel: "error" as const });
  let server: PreviewServer | undefined;
  let browser: Browser;
  let origin: string;

  const startPreview = async () => {
    const base = config();
    server = await preview({ ...base, build: { ...base.build, outDir }, preview: { ...base.preview, host: "127.0.0.1", port: 0 } });
    origin = `http://127.0.0.1:${(server.httpServer.address() as { port: number }).port}`;
  };

  beforeAll(async () => {
    await ensureTestModel(storeScriptedModel());
    await ensureTestModel(assistantScriptedModel());
    const base = config();
    await build({ ...base, build: { ...base.build, outDir, emptyOutDir: true } });
    await startPreview();
    browser = await launchChromium({ webmcp: true });
  }, 300_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    rmSync(outDir, { recursive: true, force: true });
  });

  /** A fresh page that records its errors (offline, failed loads are expected). */
  async function openPage(context: BrowserContext, errors: string[], offline: () => boolean = () => false): Promise<Page> {
    const page = await context.newPage();
    page.on("pageerror", (error) => errors.push(error.message));
    page.on("console", (message) => {
      if (message.type() === "error" && !(offline() && /Failed to load resource|ERR_INTERNET_DISCONNECTED/i.test(message.text()))) errors.push(message.text());
    });
    return page;
  }

  it("emits the engine worker and ONNX Runtime's wasm as files of the site", () => {
    const assets = readdirSync(join(outDir, "assets"));
    expect(assets.filter((name) => name.endsWith(".wasm"))).toHaveLength(1);
    expect(assets.some((name) => /^engine-worker.*\.js$/.test(name)), assets.join(", ")).toBe(true);
  });

  it.each([
    ["/", "a"],
    ["/field-store/", "#open-chat"],
    ["/offline-assistant/", "[data-web-agents-ui]"],
    ["/runtime-demo/", "body[data-ready=true]"],
    ["/plain-html/", "body[data-ready=true]"],
    ["/multi-page/", "body[data-ready=true]"],
    ["/multi-page/cart.html", "body[data-ready=true]"],
  ])("serves %s, built, with no error", async (path, selector) => {
    const context = await browser.newContext();
    const errors: string[] = [];
    try {
      const page = await openPage(context, errors);
      const response = await page.goto(`${origin}${path}`);
      expect(response?.status()).toBe(200);
      await page.waitForSelector(selector, { state: "attached", timeout: 30_000 });
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 60_000);

  it("runs the Field Store's on-device tools through the built engine worker", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 760 } });
    const errors: string[] = [];
    try {
      const page = await openPage(context, errors);
      await page.goto(`${origin}/field-store/?model=test-store-scripted`);
      await page.waitForSelector("body[data-ready=true]");
      expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
      await page.click("#open-chat");
      const chat = page.locator("#chat [data-web-agents-ui]");
      await chat.locator("button", { hasText: /Download/ }).click({ timeout: 30_000 });
      const composer = chat.locator("textarea");
      await expect.poll(() => composer.isEnabled(), { timeout: 60_000 }).toBe(true);
      await composer.fill("Buy me a pair of trail socks");
      await composer.press("Enter");
      await chat.locator('.tool[data-tool="place_order"][data-state="awaiting-confirmation"]').waitFor({ timeout: 60_000 });
      expect(await page.textContent("#cart-badge")).toBe("1");
      await page.click("#place-order");
      await chat.getByText(STORE_SCRIPTED_ANSWER).waitFor({ timeout: 30_000 });
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 180_000);

  it("answers in the built offline assistant after a reload with the network off", async () => {
    const context = await browser.newContext({ viewport: { width: 900, height: 760 } });
    const errors: string[] = [];
    let offline = false;
    try {
      const page = await openPage(context, errors, () => offline);
      const chat = () => page.locator("[data-web-agents-ui]").first();
      const send = async (text: string) => {
        const composer = chat().locator("textarea");
        await expect.poll(() => composer.isEnabled(), { timeout: 60_000 }).toBe(true);
        await composer.fill(text);
        await composer.press("Enter");
      };
      await page.goto(`${origin}/offline-assistant/?model=test-assistant-scripted`);
      await page.waitForSelector("body[data-ready=true]", { timeout: PAGE_READY_MS });
      await chat().locator("button", { hasText: /Download/ }).click({ timeout: 30_000 });
      await send("Hello?");
      await chat().getByText(ASSISTANT_SCRIPTED_ANSWER).first().waitFor({ timeout: 60_000 });

      offline = true;
      await context.setOffline(true);
      await server!.close();
      server = undefined;
      await page.reload();
      await page.waitForSelector("body[data-ready=true]", { timeout: PAGE_READY_MS });
      expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
      await send("Still there with the network off?");
      await expect.poll(() => chat().getByText(ASSISTANT_SCRIPTED_ANSWER).count(), { timeout: 60_000 }).toBe(2);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 240_000);
});
