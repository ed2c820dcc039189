import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { launchChromium } from "./launch-chromium.js";
import { describePages, forgetClosedPages } from "./page-diagnostics.js";

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
  const report = await describePages();
  expect(report).toContain("Open pages when the test failed");
  expect(report).toContain('"webAgentsEval":"running"');
  expect(report).toContain('"runsFinished":"2"');
  expect(report).toContain("Loading the model… 40%");
  expect(report).toContain("[error] the model failed to load");
  // Only the last lines: the first ones have scrolled away.
  expect(report).toContain("[log] line 29");
  expect(report).not.toContain("[log] line 0\n");
  await page.close();
  forgetClosedPages();
  expect(await describePages()).toBe("");
});

it("still describes a page the test closed in its `finally`, as it was when closed, with the chat's calls inside its shadow root", async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.setContent(`<body data-ready="true"><web-chat></web-chat></body>`);
  await page.evaluate(() => {
    const shadow = document.querySelector("web-chat")!.attachShadow({ mode: "open" });
    shadow.innerHTML = `<p role="status">Waiting for your click</p><div data-tool="go_to" data-state="done"></div><div data-tool="place_order" data-state="awaiting-confirmation"></div>`;
    console.log("the turn stopped at place_order");
  });
  await context.close();
  const report = await describePages();
  expect(report).not.toContain("Open pages");
  expect(report).toContain("Pages the test closed, as they were when it closed them");
  expect(report).toContain('"ready":"true"');
  expect(report).toContain("Waiting for your click");
  expect(report).toContain('"calls":["go_to:done","place_order:awaiting-confirmation"]');
  expect(report).toContain("[log] the turn stopped at place_order");
  forgetClosedPages();
  expect(await describePages()).toBe("");
});
