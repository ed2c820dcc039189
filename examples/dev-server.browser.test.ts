// `npm start` compiles the pages on request with Vite's dev server; the rest
// of the browser tier runs them prebuilt (examples/test-support/serve-examples.ts).
// This is the dev server's own check: every page it serves, from source, in
// headless Chromium, ready with no error, cross-origin isolated as `npm start`
// sends them. The flows themselves run on the builds of the same config.
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "../runtime/test-support/launch-chromium.js";
import { serveExamples, type ExamplesServer } from "./test-support/serve-examples.js";

/** The pages examples-config.ts builds, as `npm start` serves them, and a sign each has rendered. */
const PAGES = [
  { path: "/", ready: "a[href]" },
  { path: "/field-store/", ready: "body[data-ready=true]" },
  { path: "/offline-assistant/", ready: "[data-web-agents-ui]" },
  { path: "/runtime-demo/", ready: "body" },
  // No React or bundler in its own code: the element from source here, from the packed tarball in runtime/package-build.test.ts.
  { path: "/plain-html/", ready: "body[data-ready=true]" },
];

describe("npm start's dev server, pages compiled from source", () => {
  let server: ExamplesServer;
  let browser: Browser;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    [server, browser] = await Promise.all([serveExamples({ testModels: true, fromSource: true }), launchChromium({ webmcp: true })]);
    page = await browser.newPage();
    page.on("pageerror", (error) => errors.push(error.message));
    page.on("console", (message) => {
      if (message.type() === "error") errors.push(message.text());
    });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it("serves every example page, compiled on request, ready with no error and cross-origin isolated", async () => {
    for (const { path, ready } of PAGES) {
      // The first request transforms and pre-bundles the dependencies: the slowest page load of the tier.
      await page.goto(`${server.origin}${path}`);
      await page.waitForSelector(ready, { state: "attached", timeout: 60_000 });
      expect(await page.evaluate(() => crossOriginIsolated), path).toBe(true);
    }
    expect(errors).toEqual([]);
  }, 120_000);
});
