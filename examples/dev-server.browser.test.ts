// `npm start` compiles the pages on request with Vite's dev server; the rest
// of the browser tier runs them prebuilt (examples/test-support/serve-examples.ts).
// This is the dev server's own check: every page it serves, the evals page
// included, is linked from its index and, reached from that link, loads in
// headless Chromium with a 200, ready with no error, cross-origin isolated as
// `npm start` sends them. The flows themselves run on the builds of the same config.
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "../runtime/test-support/launch-chromium.js";
import { serveExamples, type ExamplesServer } from "./test-support/serve-examples.js";

/** The pages `npm start` serves (examples-config.ts builds them; examples/vite.config.ts adds /evals/), and a sign each has rendered. */
const PAGES = [
  { path: "/", ready: "a[href]" },
  { path: "/field-store/", ready: "body[data-ready=true]" },
  { path: "/offline-assistant/", ready: "[data-web-agents-ui]" },
  { path: "/runtime-demo/", ready: "body" },
  // No React or bundler in its own code: the element from source here, from the packed tarball in runtime/package-build.test.ts.
  { path: "/plain-html/", ready: "body[data-ready=true]" },
  // Every page a full page load: the index links its first; the others are its own links.
  { path: "/multi-page/", ready: "body[data-ready=true]" },
  { path: "/evals/", ready: "body[data-ready=true]" },
];

describe("npm start's dev server, pages compiled from source", () => {
  let server: ExamplesServer;
  let browser: Browser;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    [server, browser] = await Promise.all([serveExamples({ testModels: true, fromSource: true, evals: true }), launchChromium({ webmcp: true })]);
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

  it("serves every page, compiled on request, each linked from the index and ready from its link with a 200, no error and cross-origin isolated", async () => {
    const index = await page.goto(`${server.origin}/`);
    expect(index?.status()).toBe(200);
    await page.waitForSelector("a[href]", { state: "attached" });
    // The index's own links, resolved: every page the server has, and nothing it does not serve.
    const links = await page.$$eval("a[href]", (anchors) => anchors.map((anchor) => (anchor as HTMLAnchorElement).href));
    const paths = links.map((link) => {
      const url = new URL(link);
      expect(url.origin, link).toBe(server.origin);
      return url.pathname;
    });
    expect(paths.toSorted()).toEqual(PAGES.map((entry) => entry.path).filter((path) => path !== "/").toSorted());
    expect(await page.evaluate(() => crossOriginIsolated), "/").toBe(true);
    for (const link of links) {
      const { ready } = PAGES.find((entry) => entry.path === new URL(link).pathname)!;
      // The first request transforms and pre-bundles the dependencies: the slowest page load of the tier.
      const response = await page.goto(link);
      expect(response?.status(), link).toBe(200);
      await page.waitForSelector(ready, { state: "attached", timeout: 60_000 });
      expect(await page.evaluate(() => crossOriginIsolated), link).toBe(true);
    }
    expect(errors).toEqual([]);
  }, 120_000);
});
