// The multi-page Field Store (every link a full page load) from the config
// `npm start` uses, in headless Chromium: one turn of the scripted on-device
// model that opens a product page, adds to the cart there, opens the cart
// and orders, going on by itself after each page load.
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureTestModel } from "../../models/test-models/index.js";
import { STORE_SCRIPTED_ANSWER, storeScriptedModel } from "../../models/test-models/example-scripted-models.js";
import { launchChromium } from "../../runtime/test-support/launch-chromium.js";
import { serveExamples, type ExamplesServer } from "../test-support/serve-examples.js";

/** How late the product page and the cart answer in the first test. */
const SLOW_PAGE_MS = 2_000;

describe("the multi-page Field Store: a turn that goes on across full page loads", () => {
  let server: ExamplesServer;
  let browser: Browser;

  beforeAll(async () => {
    await ensureTestModel(storeScriptedModel());
    [server, browser] = await Promise.all([serveExamples({ testModels: true }), launchChromium({ webmcp: true })]);
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /** A context with its own storage, its page and the errors it logged. */
  async function openStore(): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 760 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    page.on("console", (message) => {
      if (message.type() === "error") errors.push(message.text());
    });
    await page.goto(`${server.origin}/multi-page/`);
    await page.waitForSelector("body[data-ready=true]");
    return { context, page, errors };
  }
  const chat = (page: Page) => page.locator("web-agents-chat");
  /** Download, then the message. */
  async function ask(page: Page, text: string): Promise<void> {
    await chat(page).getByRole("button", { name: /Download/ }).click({ timeout: 30_000 });
    const composer = chat(page).locator("textarea:not([disabled])");
    await composer.waitFor({ timeout: 60_000 });
    await composer.fill(text);
    await composer.press("Enter");
  }
  const allow = (page: Page, tool: string) => chat(page).locator(`.tool[data-tool="${tool}"]`).getByRole("button", { name: "Allow", exact: true });
  /** The chat's calls, in order, with their states. */
  const calls = (page: Page) => chat(page).locator(".tool[data-tool]").evaluateAll((nodes) => nodes.map((node) => `${node.getAttribute("data-tool")}:${node.getAttribute("data-state")}`));

  it("one turn: opens the product page, adds there, opens the cart, orders and answers on it; nothing runs twice, also when the next page is slow to come", async () => {
    const { context, page, errors } = await openStore();
    // The product page and the cart answer 2 s late, as on a slow server: the turn waits for the page
    // to go rather than going on on the page that is ending (where place_order would wait for a click).
    await context.route(/\/multi-page\/(product|cart)\.html/, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, SLOW_PAGE_MS));
      await route.continue();
    });
    try {
      await ask(page, "Buy me a pair of trail socks");
      // go_to loads the product page; the turn goes on there and stops at add_to_cart's Allow.
      await page.waitForURL(/\/multi-page\/product\.html\?id=trail-socks$/, { timeout: 60_000 });
      await allow(page, "add_to_cart").click({ timeout: 60_000 });
      // go_to loads the cart; the turn goes on there and stops at place_order's Allow.
      await page.waitForURL(/\/multi-page\/cart\.html$/, { timeout: 60_000 });
      await allow(page, "place_order").click({ timeout: 60_000 });
      await chat(page).getByText(STORE_SCRIPTED_ANSWER).waitFor({ timeout: 60_000 });
      expect(await page.textContent("#order-status")).toBe("Ordered: Trail socks × 1.");
      expect(await page.evaluate(() => JSON.parse(localStorage.getItem("multi-page:orders") ?? "[]"))).toEqual(["Trail socks × 1"]);
      // One turn: the message once, and each call once, every one done.
      expect(await chat(page).getByText("Buy me a pair of trail socks").count()).toBe(1);
      expect(await calls(page)).toEqual(["go_to:done", "add_to_cart:done", "go_to:done", "place_order:done"]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 180_000);

  it("a navigation while a call waits for the person's Allow: the call is cancelled, never run, and the turn does not go on", async () => {
    const { context, page } = await openStore();
    try {
      await ask(page, "Buy me a pair of trail socks");
      await page.waitForURL(/\/multi-page\/product\.html\?id=trail-socks$/, { timeout: 60_000 });
      await allow(page, "add_to_cart").waitFor({ timeout: 60_000 });
      // The person leaves for the cart instead of answering.
      await page.click('nav [data-nav="cart"]');
      await page.waitForURL(/\/multi-page\/cart\.html$/);
      await page.waitForSelector("body[data-ready=true]");
      await expect.poll(() => calls(page), { timeout: 10_000 }).toEqual(["go_to:done", "add_to_cart:cancelled"]);
      // Past the time a turn that goes on would take to start: nothing more was called.
      await page.waitForTimeout(2_000);
      expect(await calls(page)).toEqual(["go_to:done", "add_to_cart:cancelled"]);
      expect(await page.textContent("#cart-badge")).toBe("0");
    } finally {
      await context.close();
    }
  }, 180_000);
});
