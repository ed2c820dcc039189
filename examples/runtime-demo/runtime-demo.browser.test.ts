// What `npm start` serves, as a person sees it: the examples server (the same
// Vite config, its pages prebuilt as in the rest of the browser tier; the dev
// server's own check is examples/dev-server.browser.test.ts) in headless
// Chromium. serveExamples() hands the chat route no provider key (`env: {}`),
// so the cloud adapter must say the chat isn't configured.
import { fileURLToPath } from "node:url";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "../../runtime/test-support/launch-chromium.js";
import { PAGE_READY_MS } from "../../runtime/test-support/page-ready.js";
import { serveExamples, type ExamplesServer } from "../test-support/serve-examples.js";

describe("npm start: the runtime demo", () => {
  let server: ExamplesServer;
  let browser: Browser;
  let origin: string;

  beforeAll(async () => {
    server = await serveExamples();
    origin = server.origin;
    browser = await launchChromium({ webmcp: true });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it("mounts /api/chat, which reports chat disabled with no key", async () => {
    const response = await fetch(`${origin}/api/chat`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ enabled: false });
  });

  it("chats with the echo adapter, and explains the unconfigured cloud adapter", async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    await page.goto(`${origin}/runtime-demo/`);
    await page.waitForSelector("body[data-ready=true]", { timeout: PAGE_READY_MS });
    expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
    expect(await page.textContent("#webmcp")).toBe("native");

    await page.fill("input[name=q]", "What is on this page?");
    await page.press("input[name=q]", "Enter");
    await page.waitForFunction(() => document.querySelector("#log")?.textContent?.includes("This page has 2 tools."));
    expect(await page.textContent("#log")).toMatch(/\[get_page: done → .*Runtime demo/);

    await page.selectOption("#adapter", "cloud");
    await page.waitForFunction(() => document.querySelector("#status")?.textContent === "Chat isn't configured on this site.");
    expect(await page.isDisabled("input[name=q]")).toBe(true);
    await page.screenshot({ path: fileURLToPath(new URL("../../test-results/runtime-demo.png", import.meta.url)) });
    expect(errors).toEqual([]);
  });
});
