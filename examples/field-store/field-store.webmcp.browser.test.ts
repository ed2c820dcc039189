// The Field Store flow on each WebMCP a person's browser may have: today's
// native Chromium, the polyfill, and Chrome 160's Tool interface objects. The
// scripted shopper reads the product's reviews first: the reviews widget is a
// third-party script registering `read_reviews` straight on
// document.modelContext (readOnlyHint, untrustedContentHint), so the tool
// policy reads its annotations from getTools() in each environment; after its
// result every call that changes something waits for Allow, and place_order
// (consequentialHint, confirmed by its own Place order click) waits for that.
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureTestModel } from "../../models/test-models/index.js";
import { STORE_REVIEWS_SCRIPTED_ANSWER, storeReviewsScriptedModel } from "../../models/test-models/example-scripted-models.js";
import { detectWebMcpEnvironment, openWebMcpEnvironment, WEBMCP_ENVIRONMENTS } from "../../runtime/test-support/webmcp-environments.js";
import { PAGE_READY_MS } from "../../runtime/test-support/page-ready.js";
import { serveExamples, type ExamplesServer } from "../test-support/serve-examples.js";

const UNTRUSTED_PROMPT = (action: string) => `The assistant wants to ${action} after reading content this site does not vouch for. Allow it?`;

describe.each(WEBMCP_ENVIRONMENTS)("Field Store with the scripted shopper that reads the reviews, on $title", ({ environment }) => {
  let server: ExamplesServer;
  let origin: string;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    await ensureTestModel(storeReviewsScriptedModel());
    server = await serveExamples({ testModels: true, crossOriginIsolated: false });
    origin = server.origin;
    ({ browser, context } = await openWebMcpEnvironment(environment, { viewport: { width: 1280, height: 760 } }));
    page = await context.newPage();
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
  const tool = (name: string) => chat().locator(`.tool[data-tool="${name}"]`);
  const held = (name: string) => chat().locator(`.tool[data-tool="${name}"][data-state="awaiting-confirmation"]`);

  it("reads the reviews (marked untrusted), asks Allow for each call that changes something after them, and places the order on the person's click", async () => {
    await page.goto(`${origin}/field-store/?model=test-store-scripted-reviews`);
    await page.waitForSelector("body[data-ready=true]", { timeout: PAGE_READY_MS });
    await page.click("#open-chat");
    await chat().locator("button", { hasText: /Download/ }).click({ timeout: 30_000 });
    const composer = chat().locator("textarea");
    await expect.poll(() => composer.isEnabled(), { timeout: 60_000 }).toBe(true);
    await composer.fill("Buy me a pair of trail socks if the reviews are good");
    await composer.press("Enter");

    // add_to_cart says nothing of itself: the default policy would run it, but not after untrusted content.
    await held("add_to_cart").waitFor({ timeout: 60_000 }).catch(async (error: unknown) => {
      await page.screenshot({ path: `test-results/field-store-webmcp-${environment}-failed.png` });
      const text = await chat().evaluate((host) => (host.shadowRoot ?? host).textContent);
      throw new Error(`${(error as Error).message}\nThe chat: ${text}\nPage errors: ${errors.join("\n")}`);
    });
    expect(await detectWebMcpEnvironment(page)).toBe(environment);
    expect(await tool("read_reviews").getAttribute("data-state")).toBe("done");
    // The title the widget registered, as WebMCP reports it.
    expect(await tool("read_reviews").locator(".name").textContent()).toBe("Read reviews");
    expect(await held("add_to_cart").locator(".prompt").textContent()).toBe(UNTRUSTED_PROMPT("add to cart"));
    // The conversation the model is prompted from (kept in sessionStorage) holds the reviews marked as untrusted.
    const marks = await page.evaluate(() =>
      Object.keys(sessionStorage).flatMap((key) => [...(sessionStorage.getItem(key) ?? "").matchAll(/"webmcp-agents\/untrustedContent":\{"tool":"([^"]+)"\}/g)].map((match) => match[1])),
    );
    expect(marks).toEqual(["read_reviews"]);
    expect(await page.textContent("#cart-badge")).toBe("0");
    await held("add_to_cart").locator("button.allow").click();

    await held("go_to").waitFor({ timeout: 30_000 });
    expect(await held("go_to").locator(".prompt").textContent()).toBe(UNTRUSTED_PROMPT("go to"));
    expect(await page.textContent("#cart-badge")).toBe("1");
    await held("go_to").locator("button.allow").click();

    // place_order (consequentialHint) confirms itself with the Place order click (the store's confirmTool lets it through to it).
    await held("place_order").waitFor({ timeout: 30_000 });
    // What every agent reading this page's WebMCP sees of it (the polyfill alone would have dropped the hint).
    const reported = await page.evaluate(async () => {
      const tools = (await (document as unknown as { modelContext: { getTools(): Promise<{ name: string; annotations: Record<string, boolean> | null }[]> } }).modelContext.getTools());
      return tools.find((tool) => tool.name === "place_order")?.annotations?.consequentialHint;
    });
    expect(reported).toBe(true);
    expect(await held("place_order").locator(".prompt").textContent()).toBe("Click Place order to confirm.");
    expect(page.url()).toMatch(/#\/cart$/);
    await page.click("#place-order");
    await chat().getByText(STORE_REVIEWS_SCRIPTED_ANSWER).waitFor({ timeout: 30_000 });
    expect(await page.textContent("#cart-badge")).toBe("0");
    await page.click('[data-nav="orders"]');
    await page.locator('[data-order="FS-1001"]').waitFor();
    expect(await page.textContent('[data-order="FS-1001"]')).toContain("Trail socks × 1");
    expect(errors).toEqual([]);
  }, 240_000);
});
