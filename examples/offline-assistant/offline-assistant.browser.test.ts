// The offline assistant from the config `npm start` serves (test models on,
// built once per run: examples/test-support/serve-examples.ts): load it
// with no model in the address, pick the scripted model in the picker and
// download it from the local test-model folder; reload, and the choice is
// still there, loaded from this device; then cut the network (offline, and
// the server stopped) and reload: the service worker serves the page and the
// engine, the Cache API the model, the remembered choice selects it, and it
// answers.
import { mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureTestModel } from "../../models/test-models/index.js";
import { ASSISTANT_SCRIPTED_ANSWER, assistantScriptedModel } from "../../models/test-models/example-scripted-models.js";
import { launchChromium } from "../../runtime/test-support/launch-chromium.js";
import { serveExamples, type ExamplesServer } from "../test-support/serve-examples.js";
import { PAGE_READY_MS } from "../../runtime/test-support/page-ready.js";

const results = fileURLToPath(new URL("../../test-results/", import.meta.url));

describe("the offline assistant", () => {
  let server: ExamplesServer | undefined;
  let browser: Browser;
  let context: BrowserContext;
  let origin: string;
  let page: Page;
  const errors: string[] = [];
  let offline = false;

  beforeAll(async () => {
    mkdirSync(results, { recursive: true });
    await ensureTestModel(assistantScriptedModel());
    server = await serveExamples({ testModels: true });
    origin = server.origin;
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 900, height: 760 } });
    page = await context.newPage();
    page.on("pageerror", (error) => errors.push(error.message));
    page.on("console", (message) => {
      // Offline, failed loads are expected (and Vite's client, where the dev server serves the page, cannot reach it).
      if (message.type() === "error" && !(offline && /vite|Failed to load resource|ERR_INTERNET_DISCONNECTED/i.test(message.text()))) errors.push(message.text());
    });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const chat = () => page.locator("[data-web-agents-ui]").first();
  const answers = () => chat().getByText(ASSISTANT_SCRIPTED_ANSWER);
  const send = async (text: string) => {
    const composer = chat().locator("textarea");
    await expect.poll(() => composer.isEnabled(), { timeout: 60_000 }).toBe(true);
    await composer.fill(text);
    await composer.press("Enter");
  };

  const selectedModel = () => chat().locator("details.models summary");
  const downloadCard = () => chat().locator('.card[aria-label="Download the model"]');

  it("downloads the model the person picked once, keeps that choice across reloads, and answers with the network cut", async () => {
    // No ?model=: the page starts on its recommended model, and the person picks another.
    await page.goto(`${origin}/offline-assistant/`);
    await page.waitForSelector("body[data-ready=true]", { timeout: PAGE_READY_MS });
    expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
    await downloadCard().waitFor({ timeout: 30_000 });
    expect(await selectedModel().textContent()).not.toContain("offline assistant script");
    await chat().locator("label.model", { hasText: "Test model: offline assistant script" }).click();
    await chat().getByText("Model: Test model: offline assistant script").waitFor({ timeout: 30_000 });
    const download = downloadCard().locator("button", { hasText: /Download/ });
    await download.waitFor({ timeout: 30_000 });
    await page.screenshot({ path: `${results}offline-assistant-download-card.png` });
    await download.click();
    await send("Hello?");
    await answers().first().waitFor({ timeout: 60_000 });
    await page.screenshot({ path: `${results}offline-assistant-online.png` });

    // A reload with the network on: the same model, loaded from this device, no download card.
    await page.reload();
    await page.waitForSelector("body[data-ready=true]", { timeout: PAGE_READY_MS });
    await chat().getByText("Model: Test model: offline assistant script").waitFor({ timeout: 30_000 });
    const composer = chat().locator("textarea");
    await expect.poll(() => composer.isEnabled(), { timeout: 60_000 }).toBe(true);
    expect(await downloadCard().count()).toBe(0);
    expect(await selectedModel().textContent()).toBe("Model: Test model: offline assistant script");

    // Cut the network: the browser offline and the server gone.
    offline = true;
    await context.setOffline(true);
    await server!.close();
    server = undefined;
    await page.reload();
    await page.waitForSelector("body[data-ready=true]", { timeout: PAGE_READY_MS });
    // The service worker's copy of the page keeps its COOP/COEP headers.
    expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
    // The remembered choice, cached: it loads with no network and no re-pick.
    await expect.poll(() => selectedModel().textContent(), { timeout: 30_000 }).toBe("Model: Test model: offline assistant script");
    await send("Still there with the network off?");
    expect(await downloadCard().count()).toBe(0);
    await expect.poll(() => answers().count(), { timeout: 60_000 }).toBe(2);
    await page.screenshot({ path: `${results}offline-assistant-offline.png` });
    expect(errors).toEqual([]);
  }, 240_000);
});
