import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { launchChromium } from "./launch-chromium.js";
import { describeLivePages } from "./page-diagnostics.js";

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

it("describes every open page: its progress attributes, status lines and last console lines", async () => {
  const page = await browser.newPage();
  await page.setContent(`<body data-web-agents-eval="running" data-runs-finished="2"><p role="status">Loading the model… 40%</p></body>`);
  await page.evaluate(() => {
    for (let index = 0; index < 30; index++) console.log(`line ${index}`);
    console.error("the model failed to load");
  });
  const report = await describeLivePages();
  expect(report).toContain('"webAgentsEval":"running"');
  expect(report).toContain('"runsFinished":"2"');
  expect(report).toContain("Loading the model… 40%");
  expect(report).toContain("[error] the model failed to load");
  // Only the last lines: the first ones have scrolled away.
  expect(report).toContain("[log] line 29");
  expect(report).not.toContain("[log] line 0\n");

  await page.close();
  expect(await describeLivePages()).toBe("");
});
