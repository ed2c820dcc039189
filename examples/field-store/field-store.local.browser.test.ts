// The Field Store from the config `npm start` uses (built once per run, test
// models on; examples/dev-server.browser.test.ts checks the dev server's own
// compile), in headless Chromium: a person's flow with the scripted
// on-device model, through the real worker and engine.
import { mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureTestModel } from "../../models/test-models/index.js";
import { STORE_SCRIPTED_ANSWER, storeScriptedModel, storeScriptedQwen35Model } from "../../models/test-models/example-scripted-models.js";
import { launchChromium } from "../../runtime/test-support/launch-chromium.js";
import { waitForPageValue } from "../../runtime/test-support/wait-for-page-value.js";
import { serveExamples, type ExamplesServer } from "../test-support/serve-examples.js";

const results = fileURLToPath(new URL("../../test-results/", import.meta.url));

describe("Field Store with the scripted on-device model", () => {
  let server: ExamplesServer;
  let browser: Browser;
  let origin: string;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    mkdirSync(results, { recursive: true });
    await ensureTestModel(storeScriptedModel());
    await ensureTestModel(storeScriptedQwen35Model());
    server = await serveExamples({ testModels: true });
    origin = server.origin;
    browser = await launchChromium({ webmcp: true });
    page = await browser.newPage({ viewport: { width: 1280, height: 760 } });
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

  it("shops: navigates to a product, adds it, parks place_order on the person's click, and lists the order", async () => {
    await page.goto(`${origin}/field-store/?model=test-store-scripted`);
    await page.waitForSelector("body[data-ready=true]");
    // COOP/COEP from examples-config.ts: the engine may run WASM threads here.
    expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
    expect(await page.textContent("#cart-badge")).toBe("0");
    await page.screenshot({ path: `${results}field-store-home.png` });

    await page.click("#open-chat");
    // The scripted model is not on this device yet: the download card.
    const download = chat().locator("button", { hasText: /Download/ });
    await download.waitFor({ timeout: 30_000 });
    await page.screenshot({ path: `${results}field-store-download-card.png` });
    await download.click();
    const composer = chat().locator("textarea");
    await chat().locator("textarea:not([disabled])").waitFor({ timeout: 60_000 });
    expect(await composer.isEnabled()).toBe(true);

    await composer.fill("Buy me a pair of trail socks");
    await composer.press("Enter");

    const parked = chat().locator('.tool[data-tool="place_order"][data-state="awaiting-confirmation"]');
    await parked.waitFor({ timeout: 60_000 });
    expect(page.url()).toMatch(/#\/cart$/);
    expect(await page.textContent("#cart-badge")).toBe("1");
    expect(await chat().locator('.tool[data-tool="add_to_cart"]').getAttribute("data-state")).toBe("done");
    await page.screenshot({ path: `${results}field-store-parked.png` });

    // It waits for the person (parked: only a trusted click releases it; a script's click is shown
    // releasing nothing in widget/agent-chat.browser.test.ts: here the store's own button handler would run).
    expect(await parked.count()).toBe(1);
    await page.click("#place-order");
    await chat().getByText(STORE_SCRIPTED_ANSWER).waitFor({ timeout: 30_000 });
    expect(await page.textContent("#cart-badge")).toBe("0");
    await page.screenshot({ path: `${results}field-store-chat.png` });

    await page.click('[data-nav="orders"]');
    const order = page.locator('[data-order="FS-1001"]');
    await order.waitFor();
    expect(await order.textContent()).toContain("Trail socks × 1");
    await page.screenshot({ path: `${results}field-store-orders.png` });

    // The cart and the orders persist.
    await page.reload();
    await page.waitForSelector('[data-order="FS-1001"]');
    expect(errors).toEqual([]);
  }, 240_000);

  it("on a return visit, Reorder runs on the model on this device the person chose, with the chat never opened", async () => {
    // The person chose "On this device" in the chat's switcher on an earlier visit; the model is on this device (the test above).
    await page.evaluate(() => localStorage.setItem("field-store:chat:adapter", "local"));
    try {
      // A new visit: from another page, since the same address with a hash would not load the store again.
      await page.goto("about:blank");
      await page.goto(`${origin}/field-store/?model=test-store-scripted#/orders`);
      await page.waitForSelector("body[data-ready=true]");
      // Said before the model has loaded, and the run waits for the load rather than going to the cloud.
      expect(await page.locator("#reorder").textContent()).toContain("(On this device)");
      await page.click("#reorder-button");
      await page.locator('#reorder li[data-tool="place_order"][data-state="awaiting-confirmation"]').waitFor({ timeout: 60_000 });
      expect(await page.locator("#reorder [role=alert]").count()).toBe(0);
      expect(await page.locator("#chat").count()).toBe(0);
      await page.locator("#reorder button", { hasText: "Stop" }).click();
      expect(errors).toEqual([]);
    } finally {
      await page.evaluate(() => localStorage.removeItem("field-store:chat:adapter"));
    }
  }, 120_000);

  it("the whole store flow, from opening the chat to confirming the order, done with the keyboard only, focus never lost to <body>; Reorder words its steps and parks the cursor beside Place order with the chat closed", async () => {
    // A fresh context: the model is not on this device yet, so the flow starts at the Download button.
    const keyboardPage = await browser.newPage({ viewport: { width: 1280, height: 760 } });
    const pageErrors: string[] = [];
    keyboardPage.on("pageerror", (error) => pageErrors.push(error.message));
    await keyboardPage.goto(`${origin}/field-store/?model=test-store-scripted`);
    await keyboardPage.waitForSelector("body[data-ready=true]");
    const store = keyboardPage.locator("#chat [data-web-agents-ui]");
    /** In the page: the focused element, through open shadow roots; "body" when focus is lost. */
    const describeFocus = () => {
      let element = document.activeElement;
      while (element?.shadowRoot?.activeElement) element = element.shadowRoot.activeElement;
      if (!element || element === document.body) return "body";
      const label = element.getAttribute("aria-label") ?? (element as HTMLElement).innerText?.trim().slice(0, 40) ?? "";
      return `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ""}${element.classList.length ? `.${[...element.classList].join(".")}` : ""} ${label}`.trim();
    };
    const focused = () => keyboardPage.evaluate(describeFocus);
    /** Waits for focus to land on an element that matches, as focus moves (not by sleeping). */
    const focusMoves = (match: RegExp) => waitForPageValue(keyboardPage, describeFocus, (now) => match.test(now), `focus on ${match}`, 60_000);
    const trail: string[] = [];
    /** Presses a key and records where focus went: never <body>. */
    const press = async (key: "Tab" | "Shift+Tab" | "Enter" | "Space") => {
      await keyboardPage.keyboard.press(key);
      const now = await focused();
      trail.push(`${key} -> ${now}`);
      expect(now, trail.join("\n")).not.toBe("body");
      return now;
    };
    /** Tabs (forwards or back) until focus matches, at most `limit` presses; returns how many it took. */
    const tabTo = async (match: RegExp, key: "Tab" | "Shift+Tab" = "Tab", limit = 12) => {
      for (let presses = 1; presses <= limit; presses++) if (match.test(await press(key))) return presses;
      throw new Error(`Focus never reached ${match}:\n${trail.join("\n")}`);
    };
    /**
     * Waits for `done`, failing if focus was on <body> in any animation frame meanwhile: a watch in
     * the page looks every frame, where a poll from here would look only now and then.
     */
    const whileWaiting = async (done: () => Promise<unknown>, what: string) => {
      await keyboardPage.evaluate(() => {
        const watch = { lostFrames: 0, watching: true };
        (window as unknown as { focusWatch: typeof watch }).focusWatch = watch;
        const look = () => {
          if (!watch.watching) return;
          if (!document.activeElement || document.activeElement === document.body) watch.lostFrames++;
          requestAnimationFrame(look);
        };
        look();
      });
      try {
        await done();
      } finally {
        const lostFrames = await keyboardPage.evaluate(() => {
          const watch = (window as unknown as { focusWatch?: { lostFrames: number; watching: boolean } }).focusWatch;
          if (watch) watch.watching = false;
          return watch?.lostFrames ?? "the page navigated, so the watch was lost";
        });
        expect(lostFrames, `frames with focus on <body> while waiting for ${what}`).toBe(0);
      }
    };

    await tabTo(/#open-chat/);
    // Opening the chat moves focus into it: the model is not here yet, so to its Download button
    // (by way of the setup card, while the device is still being probed).
    expect(await press("Enter")).toMatch(/^(button\.primary Download|section\.card Connecting)/);
    await whileWaiting(() => focusMoves(/^button\.primary Download/), "focus on the Download button");
    // Download: focus goes to the progress card, then to the message field once the model is ready.
    expect(await press("Enter")).toMatch(/^section\.card (Downloading|Loading) the model/);
    await whileWaiting(() => focusMoves(/^textarea/), "the message field to take focus when the model is ready");
    await keyboardPage.keyboard.type("Buy me a pair of trail socks");
    await press("Enter");
    const parked = store.locator('.tool[data-tool="place_order"][data-state="awaiting-confirmation"]');
    await whileWaiting(() => parked.waitFor({ state: "attached", timeout: 60_000 }), "place_order to park");
    // The tool steps in words, and a way from the waiting prompt to the page's control.
    expect(await store.locator('.tool[data-tool="go_to"] .name').first().textContent()).toBe("Go to");
    expect(await parked.locator(".state").textContent()).toBe("Waiting for you to click Place order");
    const shiftTabs = await tabTo(/^button\.go-to Go to Place order/, "Shift+Tab");
    expect(shiftTabs).toBe(1);
    expect(await press("Enter")).toMatch(/^button#place-order/);
    await press("Enter");
    await whileWaiting(() => store.getByText(STORE_SCRIPTED_ANSWER).first().waitFor({ state: "attached", timeout: 60_000 }), "the answer after the order");
    expect(await keyboardPage.textContent("#cart-badge")).toBe("0");
    expect(await focused()).not.toBe("body");
    await keyboardPage.screenshot({ path: `${results}field-store-keyboard-ordered.png` });

    // Reorder, with the chat closed: its steps in words, the cursor and ring on Place order, beside its label.
    // Back to the header's button (past the chat's end the tab order leaves the page).
    await tabTo(/#open-chat/, "Shift+Tab", 40);
    await press("Enter");
    expect(await store.count()).toBe(0);
    await tabTo(/#reorder-button/);
    await press("Enter");
    const waitingStep = keyboardPage.locator('#reorder li[data-tool="place_order"][data-state="awaiting-confirmation"]');
    await whileWaiting(() => waitingStep.waitFor({ state: "attached", timeout: 60_000 }), "Reorder's place_order to park");
    expect(await waitingStep.textContent()).toContain("Place order: Waiting for you to click Place order");
    expect(await keyboardPage.locator('#reorder li[data-tool="go_to"]').first().textContent()).toContain("Go to: Done");
    const ring = keyboardPage.locator("[data-web-agents-ui] .ring");
    await ring.waitFor({ timeout: 10_000 });
    // The cursor glides there (a 420 ms transition): measure where it comes to rest, once its transition has finished.
    const parkedCursor = keyboardPage.locator('[data-web-agents-ui] .cursor[data-action="park"]');
    await parkedCursor.evaluate((element) => Promise.all(element.getAnimations().map((animation) => animation.finished)));
    const button = (await keyboardPage.locator("#place-order").boundingBox())!;
    const cursor = (await parkedCursor.boundingBox())!;
    // Beside the button, not over its label.
    expect(cursor.x >= button.x + button.width || cursor.x + 22 <= button.x).toBe(true);
    await keyboardPage.screenshot({ path: `${results}field-store-reorder-parked.png` });
    await tabTo(/Go there/, "Tab", 40);
    expect(await press("Enter")).toMatch(/^button#place-order/);
    await press("Enter");
    await whileWaiting(() => keyboardPage.locator('#reorder[data-status="done"]').waitFor({ state: "attached", timeout: 60_000 }), "the reorder to finish");
    expect(pageErrors).toEqual([]);
    await keyboardPage.close();
  }, 240_000);

  it("shops the same way on a Qwen3.5-format model: XML calls read in the worker, typed parameters, the order placed on the person's click, no token statistics for a shopper", async () => {
    await page.evaluate(() => localStorage.clear());
    await page.goto(`${origin}/field-store/?model=test-store-scripted-qwen35`);
    await page.waitForSelector("body[data-ready=true]");
    await page.click("#open-chat");
    await chat().locator("button", { hasText: /Download/ }).click({ timeout: 30_000 });
    const composer = chat().locator("textarea");
    await chat().locator("textarea:not([disabled])").waitFor({ timeout: 60_000 });
    expect(await composer.isEnabled()).toBe(true);
    await composer.fill("Buy me a pair of trail socks");
    await composer.press("Enter");
    await chat().locator('.tool[data-tool="place_order"][data-state="awaiting-confirmation"]').waitFor({ timeout: 60_000 });
    expect(await page.textContent("#cart-badge")).toBe("1");
    await page.click("#place-order");
    await chat().getByText(STORE_SCRIPTED_ANSWER).waitFor({ timeout: 30_000 });
    // Send is back once the run has finished, when the line would show: the Field Store leaves AgentChat's usage off.
    await chat().locator("button", { hasText: "Send" }).waitFor({ timeout: 30_000 });
    expect(await chat().locator("[data-usage]").count()).toBe(0);
    await page.screenshot({ path: `${results}field-store-qwen35-chat.png` });
    expect(errors).toEqual([]);
  }, 240_000);
});
