import type { Browser, Page } from "playwright-core";
import { launchChromium } from "./launch-chromium.js";
import { reactFixture } from "./react-fixture-plugin.js";
import { serveFixture } from "./serve-fixture.js";
import { PAGE_READY_MS } from "./page-ready.js";

/** A React fixture page open in headless Chromium with native WebMCP, and what it logged as errors. */
export interface FixturePage {
  browser: Browser;
  page: Page;
  /** Uncaught page errors and `console.error` lines (the missing favicon aside); a test expects none. */
  errors: string[];
  close(): Promise<void>;
}

/**
 * Serves `fixture` (a folder with index.html, built by the React fixture
 * plugin), opens it at `viewport` and waits for `body[data-ready=true]`.
 */
export async function openFixturePage(fixture: string, viewport: { width: number; height: number }): Promise<FixturePage> {
  const [browser, server] = await Promise.all([launchChromium({ webmcp: true }), serveFixture(fixture, [reactFixture])]);
  const page = await browser.newPage({ viewport });
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("console", (message) => {
    // The fixtures have no favicon; anything else logged as an error fails the run.
    if (message.type() === "error" && !message.location().url.endsWith("/favicon.ico")) errors.push(message.text());
  });
  await page.goto(server.url);
  await page.waitForSelector("body[data-ready=true]", { timeout: PAGE_READY_MS });
  return {
    browser,
    page,
    errors,
    close: async () => {
      await browser.close();
      await server.close();
    },
  };
}
