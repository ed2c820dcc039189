// <AgentChat> end to end on the real on-device path: the real
// createLocalAdapter (its module worker running transformers.js on WASM) with
// the project's test models served from .cache/models/ in the hub's layout,
// page tools under <WebAgentsProvider>, and a person's clicks on the widget.
// Nothing is driven through the adapter: every step is a click or a keypress.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Browser, BrowserContext, Page } from "playwright-core";
import type { Plugin } from "vite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_SCRIPTED_ANSWER, ensureTestModel, scriptedModel, tinyModel } from "../models/test-models/index.js";
import { modelFilesPlugin } from "../runtime/test-support/model-files-plugin.js";
import type { AdapterStatus, ModelChoice } from "../runtime/session/agent-adapter.js";
import { launchChromium } from "../runtime/test-support/launch-chromium.js";
import { reactFixture } from "../runtime/test-support/react-fixture-plugin.js";
import { serveFixture } from "../runtime/test-support/serve-fixture.js";
import { PAGE_READY_MS } from "../runtime/test-support/page-ready.js";
import { modelDownloadsSettled, scriptClickEvents } from "../runtime/test-support/nothing-happened.js";
import { waitForPageValue } from "../runtime/test-support/wait-for-page-value.js";

const fixture = fileURLToPath(new URL("./test-fixtures/local-chat-page/", import.meta.url));
const results = fileURLToPath(new URL("../test-results/", import.meta.url));

type Harness = {
  calls: string[];
  cart(): number;
  statuses(): AdapterStatus[];
  models(): ModelChoice[];
  manifestKeys(): Promise<string[]>;
  cachedFiles(repo: string): Promise<string[]>;
};
const harness = <T>(page: Page, read: (harness: Harness) => T | Promise<T>) =>
  page.evaluate(`(${read.toString()})(window.harness)`) as Promise<T>;

const started = Date.now();
const step = (what: string) => console.info(`[agent-chat local ${((Date.now() - started) / 1000).toFixed(1)} s] ${what}`);

describe("<AgentChat> in headless Chromium on the real local adapter (WASM, the project's test models)", () => {
  let browser: Browser;
  let context: BrowserContext;
  let server: Awaited<ReturnType<typeof serveFixture>>;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    mkdirSync(results, { recursive: true });
    const [scripted] = await Promise.all([ensureTestModel(scriptedModel()), ensureTestModel(tinyModel())]);
    const root = join(scripted.folder, "..");
    [browser, server] = await Promise.all([launchChromium({ webmcp: true }), serveFixture(fixture, [reactFixture, modelFilesPlugin(root)])]);
    context = await browser.newContext({ viewport: { width: 1100, height: 720 } });
    page = await context.newPage();
    page.on("pageerror", (error) => errors.push(error.message));
    page.on("console", (message) => {
      if (message.type() === "error" && !message.location().url.endsWith("/favicon.ico")) errors.push(message.text());
    });
    // The throttled route: each download takes a few seconds, long enough to cancel midway.
    await page.goto(`${server.url}?slow`);
    await page.waitForSelector("body[data-ready=true]", { state: "attached", timeout: PAGE_READY_MS });
    step("page up");
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  // Playwright's CSS selectors pierce open shadow roots.
  const chat = () => page.locator("#chat [data-web-agents-ui]");
  const downloadCard = () => chat().locator('.card[aria-label="Download the model"]');
  const downloadingCard = () => chat().locator('.card[aria-label="Downloading the model"]');
  // Reading the files (a percentage), then starting the model (the engine's session: no number of its own).
  const loadingCard = () => chat().locator('.card[aria-label="Loading the model"], .card[aria-label="Starting the model"]');
  const picker = () => chat().locator("details.models");
  const send = async (text: string) => {
    await chat().locator("textarea").fill(text);
    await chat().locator("textarea").press("Enter");
  };
  /** Waits for the downloading card to show a percent strictly between 0 and 100; returns its facts line. */
  const midDownload = async (): Promise<string> => {
    await downloadingCard().waitFor({ timeout: 15_000 });
    return waitForPageValue(
      page,
      () => document.querySelector("#chat [data-web-agents-ui]")?.shadowRoot?.querySelector('.card[aria-label="Downloading the model"] .muted')?.textContent ?? "",
      (text) => {
        const percent = Number(/^(\d+)%/.exec(text)?.[1]);
        return percent > 0 && percent < 100;
      },
      "a percent between 0 and 100 while downloading",
      15_000,
    );
  };
  /** The selected model's download, from the card's Download button to ready. */
  const downloadToReady = async (label: string, size: string) => {
    await downloadCard().waitFor({ timeout: 30_000 });
    expect(await downloadCard().textContent()).toContain(`${label} runs on this device, after a one-time download of ${size}.`);
    await downloadCard().locator("button", { hasText: "Download" }).click();
    const facts = await midDownload();
    expect(facts).toMatch(new RegExp(`^\\d+% · \\d+ of ${size}`));
    expect(await downloadingCard().locator("progress").getAttribute("aria-valuetext")).toMatch(/^\d+%, /);
    expect(await downloadingCard().textContent()).toContain(`Downloading ${label}…`);
    // The load after it is worded as a load from this device, never as a download.
    await loadingCard().waitFor({ timeout: 30_000 });
    const loading = (await loadingCard().textContent()) ?? "";
    expect(loading).toMatch(/^(Loading the model from this device… \d+%|Starting the model on this device…)$/);
    expect(loading).not.toMatch(/download/i);
    expect(await chat().locator(".composer .explain").textContent()).toBe("Loading the model from this device… You can chat once it has loaded.");
    step(`${label}: downloaded, loading`);
    await chat().locator("textarea:not([disabled])").waitFor({ timeout: 60_000 });
    step(`${label}: ready`);
    expect(await chat().locator(".card").count()).toBe(0);
    expect(await chat().locator(".composer .explain").count()).toBe(0);
  };

  it("shows the download card with the size; Cancel mid-download returns to it with nothing saved; the picker switches models", async () => {
    await downloadCard().waitFor({ timeout: 30_000 });
    const card = (await downloadCard().textContent()) ?? "";
    expect(card).toContain("Test model: scripted tool call runs on this device, after a one-time download of 482 KB.");
    expect(card).toContain("No WebGPU in this browser: the model runs on the processor (CPU).");
    expect(await downloadCard().locator("button").textContent()).toBe("Download (482 KB)");
    expect(await chat().locator(".composer .explain").textContent()).toBe("Download the model above to start chatting. It runs on this device.");
    expect(await chat().locator("textarea").isDisabled()).toBe(true);
    // The picker is open before the first download and lists both test models.
    expect(await picker().getAttribute("open")).not.toBeNull();
    expect(await picker().locator("summary").textContent()).toBe("Model: Test model: scripted tool call");
    expect(await picker().locator("label.model").count()).toBe(2);
    await page.screenshot({ path: `${results}agent-chat-local-download-card.png` });

    await downloadCard().locator("button", { hasText: "Download" }).click();
    const facts = await midDownload();
    expect(facts).toMatch(/^\d+% · \d+ of 482 KB/);
    // The picker cannot switch while a download runs.
    expect(await picker().locator('input[value="test-tiny"]').isDisabled()).toBe(true);
    await page.screenshot({ path: `${results}agent-chat-local-downloading.png` });
    await downloadingCard().locator("button", { hasText: "Cancel" }).click();
    await downloadCard().waitFor({ timeout: 10_000 });
    step("cancelled");
    // The engine cleans up after its fetch rejects, holding the model's lock: once it lets go, look.
    await modelDownloadsSettled(page);
    expect(await downloadCard().locator("button").textContent()).toBe("Download (482 KB)");
    expect(await chat().locator('[role="alert"]').count()).toBe(0);
    expect(await harness(page, (h) => h.manifestKeys())).toEqual([]);
    expect(await harness(page, (h) => h.cachedFiles("scripted"))).toEqual([]);
    expect(await harness(page, (h) => h.models().find((model) => model.id === "test-scripted"))).toMatchObject({ cached: false, selected: true });
    const progress = (await harness(page, (h) => h.statuses())).flatMap((status) => (status.state === "downloading" ? [status.progress] : []));
    expect(progress.at(-1)).toBeLessThan(1);

    // A person picks the other model: the picker calls selectModel, the card follows.
    await picker().locator("label.model", { hasText: "Test model: tiny" }).click();
    await picker().locator("summary", { hasText: "Model: Test model: tiny (random weights)" }).waitFor({ timeout: 10_000 });
    await downloadCard().getByText("Test model: tiny (random weights) runs on this device, after a one-time download of 12 MB.").waitFor();
    expect(await downloadCard().locator("button").textContent()).toBe("Download (12 MB)");
    expect(await harness(page, (h) => h.models().find((model) => model.selected)?.id)).toBe("test-tiny");
    expect(await picker().locator('input[value="test-tiny"]').isChecked()).toBe(true);
    await page.screenshot({ path: `${results}agent-chat-local-picker.png` });
    // The picker folds on a choice; the person opens it again to go back.
    expect(await picker().getAttribute("open")).toBeNull();
    await picker().locator("summary").click();
    await picker().locator("label.model", { hasText: "Test model: scripted tool call" }).click();
    await downloadCard().getByText("Test model: scripted tool call runs on this device").waitFor({ timeout: 10_000 });
    expect(await harness(page, (h) => h.models().find((model) => model.selected)?.id)).toBe("test-scripted");
  }, 60_000);

  it("downloads with a progress bar, loads, and parks the scripted model's add_to_cart until the person's real click", async () => {
    await downloadToReady("Test model: scripted tool call", "482 KB");
    const states = (await harness(page, (h) => h.statuses())).map((status) => status.state).filter((s, i, all) => s !== all[i - 1]);
    expect(states.slice(-3)).toEqual(["downloading", "loading", "ready"]);
    expect(await harness(page, (h) => h.manifestKeys())).toEqual(["test-scripted/wasm-fp32"]);
    expect(await picker().locator('label.model:has(input[value="test-scripted"]) .badge').allTextContents()).toContain("On this device");

    await send("Buy socks");
    const parked = chat().locator('.tool[data-tool="add_to_cart"][data-state="awaiting-confirmation"]');
    await parked.waitFor({ timeout: 20_000 });
    step("parked");
    expect(await parked.locator(".prompt").textContent()).toBe("Click Add to cart to confirm.");
    const cursorPrompt = page.locator("body > [data-web-agents-ui] .prompt");
    await cursorPrompt.waitFor();
    expect(await cursorPrompt.textContent()).toBe("Click Add to cart to confirm.");
    // While the run waits, a model switch is refused by the widget itself.
    expect(await picker().locator('input[value="test-tiny"]').isDisabled()).toBe(true);
    await page.screenshot({ path: `${results}agent-chat-local-parked.png` });
    // It waits for the person: a script's click releases nothing.
    expect(await scriptClickEvents(page, "#add-to-cart")).toEqual([]);
    expect(await parked.count()).toBe(1);
    expect(await harness(page, (h) => h.cart())).toBe(0);

    await page.click("#add-to-cart");
    await chat().getByText(DEFAULT_SCRIPTED_ANSWER).waitFor({ timeout: 20_000 });
    await chat().locator("button", { hasText: "Send" }).waitFor();
    step("answered");
    expect(await chat().locator('.tool[data-tool="add_to_cart"]').getAttribute("data-state")).toBe("done");
    expect(await harness(page, (h) => h.calls)).toEqual(["add_to_cart:socks"]);
    expect(await harness(page, (h) => h.cart())).toBe(1);
    expect(await page.textContent("#badge")).toBe("1");
    await page.screenshot({ path: `${results}agent-chat-local.png` });
  }, 90_000);

  it("switches to the tiny model, downloads it, and Stop ends a long reply without the widget hanging", async () => {
    // The picker folds once a model is ready; a person opens it and picks.
    await picker().locator("summary").click();
    await picker().locator("label.model", { hasText: "Test model: tiny" }).click();
    await downloadToReady("Test model: tiny (random weights)", "12 MB");
    expect(await picker().locator("summary").textContent()).toBe("Model: Test model: tiny (random weights)");

    await send("Tell me a long story");
    const replies = chat().locator('.log > .message[data-role="assistant"]');
    const reply = replies.last();
    const stop = chat().locator("button", { hasText: "Stop" });
    await stop.waitFor({ timeout: 10_000 });
    // Let the model write a while, then stop it.
    await page.waitForFunction(
      () => {
        const host = document.querySelector("#chat [data-web-agents-ui]")!;
        const replies = host.shadowRoot!.querySelectorAll('.log > .message[data-role="assistant"]');
        return (replies[replies.length - 1]?.textContent?.length ?? 0) > 200;
      },
      undefined,
      { timeout: 20_000 },
    );
    step("generating; Stop");
    await page.screenshot({ path: `${results}agent-chat-local-streaming.png` });
    // Timed in the page, from the click on Stop to Send taking its place
    // (Playwright's round trips would count the CPU's contention twice).
    await page.evaluate(() => {
      const root = document.querySelector("#chat [data-web-agents-ui]")!.shadowRoot!;
      const timing = ((window as any).stopTiming = {} as { clickedAt?: number; sendAt?: number });
      const stopButton = [...root.querySelectorAll("button")].find((button) => button.textContent?.trim() === "Stop")!;
      stopButton.addEventListener("click", () => (timing.clickedAt = performance.now()), { once: true });
      const observer = new MutationObserver(() => {
        if (timing.clickedAt === undefined) return;
        if ([...root.querySelectorAll(".composer button")].some((button) => button.textContent?.trim() === "Send")) {
          timing.sendAt = performance.now();
          observer.disconnect();
        }
      });
      observer.observe(root, { subtree: true, childList: true, characterData: true });
    });
    await stop.click();
    await chat().locator("button", { hasText: "Send" }).waitFor({ timeout: 5_000 });
    const stopMs = await page.evaluate(() => {
      const timing = (window as any).stopTiming as { clickedAt: number; sendAt: number };
      return timing.sendAt - timing.clickedAt;
    });
    step(`Send back ${stopMs.toFixed(0)} ms after the click on Stop`);
    expect(stopMs).toBeLessThan(1_500);
    const stopped = (await reply.textContent()) ?? "";
    const stoppedReply = replies.nth((await replies.count()) - 1);
    expect(await chat().locator('.error[role="alert"]').count()).toBe(0);
    expect(await chat().locator("textarea").isDisabled()).toBe(false);
    await page.screenshot({ path: `${results}agent-chat-local-stopped.png` });

    // The widget is not hung: the next message streams at once, and Escape stops it too.
    await send("Again");
    await stop.waitFor({ timeout: 5_000 });
    await page.waitForFunction(
      (count) => {
        const host = document.querySelector("#chat [data-web-agents-ui]")!;
        const replies = host.shadowRoot!.querySelectorAll('.log > .message[data-role="assistant"]');
        return replies.length > count && (replies[replies.length - 1]?.textContent?.length ?? 0) > 20;
      },
      await replies.count(),
      { timeout: 10_000 },
    );
    // Nothing more arrived after Stop, and no error: the worker runs one generation at a time and
    // sends its events in order on one port, so whatever the stopped one sent came before this reply's text.
    expect(await stoppedReply.textContent()).toBe(stopped);
    expect(await chat().locator('.error[role="alert"]').count()).toBe(0);
    await chat().locator("textarea").press("Escape");
    await chat().locator("button", { hasText: "Send" }).waitFor({ timeout: 5_000 });
    expect(await chat().locator('.error[role="alert"]').count()).toBe(0);
    expect(errors).toEqual([]);
  }, 90_000);
});
