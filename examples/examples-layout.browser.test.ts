// The layout and accessibility matrix of the pages `npm start` serves (the
// same Vite config, built once per run, test models on, as a person without a
// network would run it): the index, the Field Store with its chat open,
// the offline assistant and the runtime demo, at 1280x800 and 390x844,
// light and dark. The page may not scroll sideways, no chat may draw
// outside its box, and axe-core finds nothing. Screenshots go to
// test-results/layout/ for review.
import { mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkLayout, LAYOUT_THEMES, LAYOUT_VIEWPORTS } from "../runtime/test-support/layout-checks.js";
import { launchChromium } from "../runtime/test-support/launch-chromium.js";
import { serveExamples, type ExamplesServer } from "./test-support/serve-examples.js";
import { PAGE_READY_MS } from "../runtime/test-support/page-ready.js";

const results = fileURLToPath(new URL("../test-results/layout/", import.meta.url));

interface ExamplePage {
  name: string;
  path: string;
  /** Brings the page to the state worth checking, once it is ready. */
  open?: (page: Page) => Promise<void>;
}

const PAGES: ExamplePage[] = [
  { name: "index", path: "/" },
  {
    name: "field-store",
    path: "/field-store/",
    async open(page) {
      await page.click("#open-chat");
      // Not downloaded yet: the model picker open above the download card, the tallest the chat gets.
      await page.locator("#chat [data-web-agents-ui]").locator("button", { hasText: /^Download/ }).waitFor({ timeout: 30_000 });
    },
  },
  {
    name: "offline-assistant",
    path: "/offline-assistant/",
    async open(page) {
      await page.locator("[data-web-agents-ui]").locator("button", { hasText: /^Download/ }).first().waitFor({ timeout: 30_000 });
    },
  },
  { name: "runtime-demo", path: "/runtime-demo/" },
];

describe("the examples' layout and accessibility", () => {
  let server: ExamplesServer;
  let browser: Browser;
  let origin: string;
  let page: Page;

  beforeAll(async () => {
    mkdirSync(results, { recursive: true });
    server = await serveExamples({ testModels: true });
    origin = server.origin;
    browser = await launchChromium({ webmcp: true });
    // axe-core's runner opens a page of its own in the page's context: a context, not browser.newPage().
    page = await (await browser.newContext()).newPage();
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it.each(PAGES)("$name: no sideways scroll, nothing outside the chat's box, no axe violation, at 1280x800 and 390x844, light and dark", async (example) => {
    await page.setViewportSize(LAYOUT_VIEWPORTS[0]);
    await page.emulateMedia({ colorScheme: "light" });
    await page.goto(`${origin}${example.path}`);
    if (example.path !== "/") await page.waitForSelector("body[data-ready=true]", { timeout: PAGE_READY_MS });
    await example.open?.(page);
    const found: Record<string, unknown> = {};
    for (const viewport of LAYOUT_VIEWPORTS) {
      await page.setViewportSize(viewport);
      for (const theme of LAYOUT_THEMES) {
        await page.emulateMedia({ colorScheme: theme });
        await page.screenshot({ path: `${results}${example.name}-${viewport.name}-${theme}.png`, fullPage: true });
        const findings = await checkLayout(page);
        if (Object.values(findings).some((list) => list.length > 0)) found[`${viewport.name} ${theme}`] = findings;
      }
    }
    expect(found).toEqual({});
  }, 90_000);
});
