// The layout and accessibility matrix of the chat itself: every state a
// person can meet (test-fixtures/states-page/), at a desktop and a phone
// viewport, light and dark. Nothing of the chat may be drawn outside its box
// (the model picker open above the composer once pushed the composer out),
// the page may not scroll sideways, and axe-core finds nothing. Screenshots
// go to test-results/layout/ for review.
import { mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkLayout, LAYOUT_THEMES, LAYOUT_VIEWPORTS } from "../runtime/test-support/layout-checks.js";
import { launchChromium } from "../runtime/test-support/launch-chromium.js";
import { reactFixture } from "../runtime/test-support/react-fixture-plugin.js";
import { serveFixture } from "../runtime/test-support/serve-fixture.js";
import type { ChatState } from "./test-fixtures/states-page/page.js";
import { PAGE_READY_MS } from "../runtime/test-support/page-ready.js";

const fixture = fileURLToPath(new URL("./test-fixtures/states-page/", import.meta.url));
const results = fileURLToPath(new URL("../test-results/layout/", import.meta.url));

describe("<AgentChat> layout and accessibility, in every state", () => {
  let browser: Browser;
  let server: Awaited<ReturnType<typeof serveFixture>>;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    mkdirSync(results, { recursive: true });
    [browser, server] = await Promise.all([launchChromium({ webmcp: true }), serveFixture(fixture, [reactFixture])]);
    // axe-core's runner opens a page of its own in the page's context: a context, not browser.newPage().
    const context = await browser.newContext();
    page = await context.newPage();
    page.on("pageerror", (error) => errors.push(error.message));
    await page.goto(server.url);
    await page.waitForSelector("body[data-ready=true]", { timeout: PAGE_READY_MS });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const chat = () => page.locator("#chat [data-web-agents-ui]");
  const send = async (text: string) => {
    await chat().locator("textarea").fill(text);
    await chat().locator("textarea").press("Enter");
  };

  /** Remounts the chat and brings it to `state`, through the composer where a state needs a conversation. */
  async function reach(state: ChatState): Promise<void> {
    await page.setViewportSize(LAYOUT_VIEWPORTS[0]);
    await page.evaluate((next) => (window as any).harness.show(next), state);
    await page.waitForSelector(`body[data-state="${state}"]`);
    switch (state) {
      case "needs-download":
        await chat().locator("button", { hasText: /^Download/ }).waitFor();
        break;
      case "downloading":
        await chat().locator("progress").waitFor();
        break;
      case "ready":
        await send("Find me warm socks");
        await chat().getByText("Shall I add the wool socks").waitFor();
        break;
      case "streaming":
        await send("Find me warm socks");
        await chat().getByText("Looking through the catalog").waitFor();
        await chat().locator("button", { hasText: "Stop" }).waitFor();
        break;
      case "parked":
        await send("Order them");
        await chat().locator('.tool[data-state="awaiting-confirmation"]').waitFor();
        break;
      case "error":
        await send("Add one more");
        await chat().locator("button", { hasText: "Try again" }).waitFor();
        break;
      default:
        await chat().locator(".root").waitFor();
    }
  }

  it("cuts no header text in a 400 or 390 px chat, or on a 390 px phone: the actions wrap under a long title instead", async () => {
    await page.setViewportSize(LAYOUT_VIEWPORTS[0]);
    await page.evaluate(() => (window as any).harness.show("needs-download", { title: "Field Store assistant" }));
    await chat().locator("button", { hasText: /^Download/ }).waitFor();
    const phone = LAYOUT_VIEWPORTS.find((viewport) => viewport.name === "phone")!;
    const cut: Record<string, string[]> = {};
    try {
      for (const [name, viewport, width] of [["400 px chat", LAYOUT_VIEWPORTS[0], "400px"], ["390 px chat", LAYOUT_VIEWPORTS[0], "390px"], ["390 px phone", phone, ""]] as const) {
        await page.setViewportSize(viewport);
        await page.evaluate((chatWidth) => void (document.querySelector<HTMLElement>("#chat")!.style.width = chatWidth), width);
        // Cut: the text overflows its box (an ellipsis), or the box is narrower than its content's own width (a shrunk <select>).
        const found = await chat().evaluate((host) => {
          const header = host.shadowRoot!.querySelector(".header")!;
          const shown = [...header.querySelectorAll<HTMLElement>(".title, label, select, button")].filter((element) => element.getBoundingClientRect().width > 1);
          return shown
            .filter((element) => {
              const clone = element.cloneNode(true) as HTMLElement;
              clone.style.cssText = "position: absolute; visibility: hidden; width: max-content; min-width: 0; max-width: none;";
              header.append(clone);
              const natural = clone.getBoundingClientRect().width;
              clone.remove();
              return element.scrollWidth > element.clientWidth || element.getBoundingClientRect().width + 0.5 < natural;
            })
            .map((element) => `${element.tagName.toLowerCase()} "${element.textContent?.trim()}"`);
        });
        if (found.length > 0) cut[name] = found;
      }
    } finally {
      await page.evaluate(() => void (document.querySelector<HTMLElement>("#chat")!.style.width = ""));
    }
    expect(cut).toEqual({});
  });

  const states: ChatState[] = ["needs-download", "downloading", "loading", "ready", "streaming", "parked", "error", "unavailable"];
  it.each(states)("%s: inside its box, no sideways scroll, no axe violation, at 1280x800 and 390x844, light and dark", async (state) => {
    await reach(state);
    const found: Record<string, unknown> = {};
    for (const viewport of LAYOUT_VIEWPORTS) {
      await page.setViewportSize(viewport);
      for (const theme of LAYOUT_THEMES) {
        await page.emulateMedia({ colorScheme: theme });
        await page.screenshot({ path: `${results}chat-${state}-${viewport.name}-${theme}.png` });
        const findings = await checkLayout(page);
        if (Object.values(findings).some((list) => list.length > 0)) found[`${viewport.name} ${theme}`] = findings;
      }
    }
    expect(found).toEqual({});
    expect(errors).toEqual([]);
  }, 60_000);
});
