// watchNavigation in headless Chromium, which has the Navigation API: a run
// after a tool call waits for a full-page navigation to take the page, and
// for nothing else.
import { fileURLToPath } from "node:url";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "../test-support/launch-chromium.js";
import { PAGE_READY_MS } from "../test-support/page-ready.js";
import { serveFixture } from "../test-support/serve-fixture.js";

const fixture = fileURLToPath(new URL("./test-fixtures/navigation-page/", import.meta.url));

type Options = { maxMs: number; abortAfterMs?: number; interceptAll?: boolean; preventAll?: boolean };

describe("watchNavigation: how long a run waits after a call for the page to go", () => {
  let browser: Browser;
  let server: Awaited<ReturnType<typeof serveFixture>>;

  beforeAll(async () => {
    [browser, server] = await Promise.all([launchChromium(), serveFixture(fixture)]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  async function open(): Promise<Page> {
    const page = await browser.newPage();
    // The next page of the site, slow to come; and an answer that never ends the page.
    await page.route("**/next-page", async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      await route.fulfill({ contentType: "text/html", body: "<!doctype html><title>Next</title><p>Next page</p>" });
    });
    await page.route("**/no-content", (route) => route.fulfill({ status: 204 }));
    await page.goto(server.url);
    await page.waitForSelector("body[data-ready=true]", { timeout: PAGE_READY_MS });
    return page;
  }
  const settleAfter = (page: Page, start: string, options: Options) =>
    page.evaluate(([start, options]) => (window as any).harness.settleAfter(start, options) as Promise<number>, [start, options] as const);

  it("holds the run until the page goes, however slow the next page: the page that goes never goes on", async () => {
    const page = await open();
    try {
      void settleAfter(page, "/next-page", { maxMs: 10_000 }).catch(() => {});
      await page.waitForURL(/\/next-page$/);
      await page.waitForSelector("text=Next page");
      // The old page's wait never ended: it would have noted how long it took.
      expect(await page.evaluate(() => sessionStorage.getItem("settled-after"))).toBeNull();
    } finally {
      await page.close();
    }
  });

  it.each([
    { case: "a fragment", start: "#part", options: { maxMs: 5_000 } },
    { case: "a navigation a router intercepts", start: "/routed", options: { maxMs: 5_000, interceptAll: true } },
    { case: "a navigation the page cancels", start: "/next-page", options: { maxMs: 5_000, preventAll: true } },
    // A 204 keeps the page and never ends the navigation: only the stop ends the wait.
    { case: "a navigation while the run stops", start: "/no-content", options: { maxMs: 5_000, abortAfterMs: 400 } },
  ])("goes on at once after $case", async ({ start, options }) => {
    const page = await open();
    try {
      expect(await settleAfter(page, start, options)).toBeLessThan(1_000);
      expect(page.url()).not.toMatch(/next-page/);
    } finally {
      await page.close();
    }
  });

  it("goes on after maxMs when the navigation never ends the page (a 204 answer)", async () => {
    const page = await open();
    try {
      const took = await settleAfter(page, "/no-content", { maxMs: 1_200 });
      expect(took).toBeGreaterThanOrEqual(1_150);
      expect(took).toBeLessThan(5_000);
      expect(page.url()).toBe(server.url);
    } finally {
      await page.close();
    }
  });

  it("goes on at once where the browser has no Navigation API", async () => {
    const page = await open();
    try {
      await page.evaluate(() => Object.defineProperty(window, "navigation", { value: undefined, configurable: true }));
      // No API, so nothing to wait for: the 204 answer keeps the page, and the run goes on without waiting.
      expect(await settleAfter(page, "/no-content", { maxMs: 5_000 })).toBeLessThan(1_000);
    } finally {
      await page.close();
    }
  });
});
