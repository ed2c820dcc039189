// The Field Store's chat in German (`?lang=de`) and in Hebrew (`?lang=he`,
// a right-to-left page), in headless Chromium with the scripted on-device
// model: the person's whole flow, with none of the chat's English defaults
// left on screen, and a mirrored layout on the right-to-left page.
import { mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_CHAT_LABELS } from "@webmcp-agents/chat";
import { ensureTestModel } from "../../models/test-models/index.js";
import { STORE_SCRIPTED_ANSWER, storeScriptedModel } from "../../models/test-models/example-scripted-models.js";
import { launchChromium } from "../../runtime/test-support/launch-chromium.js";
import { chatStrings, englishLeftIn } from "../../widget/test-fixtures/default-chat-strings.js";
import { serveExamples, type ExamplesServer } from "../test-support/serve-examples.js";
import { GERMAN } from "./labels-de.js";
import { HEBREW } from "./labels-he.js";

const results = fileURLToPath(new URL("../../test-results/", import.meta.url));
const ENGLISH = chatStrings(DEFAULT_CHAT_LABELS);

/**
 * In the page: the chat's own words now, its text and the attributes a person
 * hears or sees, without its content: the person's and the model's messages,
 * the tools' names, input, output and prompts, the adapters' and models' own
 * labels (the site's words), and the cursor's bubble (the tool's prompt).
 */
function chatWords(): string {
  const host = document.querySelector("#chat [data-web-agents-ui]");
  const copy = host?.shadowRoot?.querySelector(".root")?.cloneNode(true) as HTMLElement | undefined;
  if (!copy) return "";
  const content = ".message.user, .markdown, .tool .name, .tool .io pre, .tool .io code, .tool .prompt, select, .card .note, .models strong, .models .brief";
  for (const element of copy.querySelectorAll(content)) element.remove();
  const words = [copy.textContent ?? ""];
  for (const element of [copy, ...copy.querySelectorAll("*")]) {
    for (const name of ["aria-label", "aria-valuetext", "placeholder", "title"]) {
      const value = element.getAttribute(name);
      if (value) words.push(value);
    }
  }
  return words.join("\n");
}

describe("Field Store chat in German and in Hebrew", () => {
  let server: ExamplesServer;
  let browser: Browser;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    mkdirSync(results, { recursive: true });
    await ensureTestModel(storeScriptedModel());
    server = await serveExamples({ testModels: true });
    browser = await launchChromium({ webmcp: true });
    page = await browser.newPage({ viewport: { width: 1280, height: 760 } });
    page.on("pageerror", (error) => errors.push(error.message));
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const chat = () => page.locator("#chat [data-web-agents-ui]");
  /** The English of the chat's own on screen now: none, in another language. */
  const englishLeft = async () => englishLeftIn(await page.evaluate(chatWords), ENGLISH);
  const box = async (locator: Locator) => (await locator.boundingBox())!;

  it("German: download, send, tool calls, the parked order and the answer, with no English string of the chat's own", async () => {
    await page.goto(`${server.origin}/field-store/?model=test-store-scripted&lang=de`);
    await page.waitForSelector("body[data-ready=true]");
    await page.click("#open-chat");
    const download = chat().locator("button", { hasText: GERMAN.downloadButton(undefined) });
    await download.waitFor({ timeout: 30_000 });
    expect(await englishLeft(), "the download card").toEqual([]);
    await download.click();
    expect(await englishLeft(), "the download's progress, or its load").toEqual([]);
    const composer = chat().locator("textarea:not([disabled])");
    await composer.waitFor({ timeout: 60_000 });
    expect(await chat().locator("textarea").getAttribute("placeholder")).toBe(GERMAN.placeholder);

    await composer.fill("Buy me a pair of trail socks");
    await composer.press("Enter");
    const parked = chat().locator('.tool[data-tool="place_order"][data-state="awaiting-confirmation"]');
    await parked.waitFor({ timeout: 60_000 });
    expect(await parked.locator(".state").textContent()).toBe(GERMAN.waitingForClick("Place order"));
    expect(await chat().locator(".go-to").textContent()).toBe(GERMAN.goTo("Place order"));
    // Every call's fold open, so its headings count too.
    await chat().locator(".tool details").evaluateAll((folds) => folds.forEach((fold) => ((fold as HTMLDetailsElement).open = true)));
    expect(await englishLeft(), "the tool calls and the parked order").toEqual([]);
    await page.screenshot({ path: `${results}field-store-de-parked.png` });

    await page.click("#place-order");
    await chat().getByText(STORE_SCRIPTED_ANSWER).waitFor({ timeout: 30_000 });
    await chat().locator("button", { hasText: GERMAN.send }).waitFor({ timeout: 30_000 });
    await chat().locator(".tool details").evaluateAll((folds) => folds.forEach((fold) => ((fold as HTMLDetailsElement).open = true)));
    expect(await chat().locator('.tool[data-state="done"] .state').first().textContent()).toBe(GERMAN.toolStates.done);
    expect(await englishLeft(), "the answer").toEqual([]);
    await page.screenshot({ path: `${results}field-store-de-answer.png` });
    expect(errors).toEqual([]);
  }, 120_000);

  it("Hebrew, right to left: the chat mirrored (user bubble, Send, the header, tool states on the other side) and no English of the chat's own", async () => {
    // The model is on this device now (the run above); a new conversation.
    await page.evaluate(() => sessionStorage.clear());
    await page.goto(`${server.origin}/field-store/?model=test-store-scripted&lang=he`);
    await page.waitForSelector("body[data-ready=true]");
    expect(await page.evaluate(() => document.documentElement.dir)).toBe("rtl");
    await page.click("#open-chat");
    const composer = chat().locator("textarea:not([disabled])");
    await composer.waitFor({ timeout: 60_000 });
    await composer.fill("Buy me a pair of trail socks");
    await composer.press("Enter");
    const parked = chat().locator('.tool[data-tool="place_order"][data-state="awaiting-confirmation"]');
    await parked.waitFor({ timeout: 60_000 });
    await page.click("#place-order");
    await chat().getByText(STORE_SCRIPTED_ANSWER).waitFor({ timeout: 30_000 });
    const send = chat().locator("button", { hasText: HEBREW.send });
    await send.waitFor({ timeout: 30_000 });
    expect(await englishLeft()).toEqual([]);
    await page.screenshot({ path: `${results}field-store-he-answer.png` });

    const log = await box(chat().locator(".log"));
    const user = await box(chat().locator(".message.user").first());
    // The person's bubble at the inline end: the left, on a right-to-left page.
    expect(user.x - log.x).toBeLessThan(8);
    expect(log.x + log.width - (user.x + user.width)).toBeGreaterThan(40);
    // Send before the field in reading order: to its left.
    const field = await box(chat().locator("textarea"));
    expect((await box(send)).x + (await box(send)).width).toBeLessThanOrEqual(field.x + 1);
    // The heading on the right, New chat on the left.
    const title = await box(chat().locator(".title"));
    const newChat = await box(chat().locator("button", { hasText: HEBREW.newChat }));
    expect(newChat.x + newChat.width).toBeLessThan(title.x);
    // A tool call's state on the left of its name.
    const done = chat().locator('.tool[data-tool="add_to_cart"]');
    expect((await box(done.locator(".state"))).x + 1).toBeLessThan((await box(done.locator(".name"))).x);
    expect(errors).toEqual([]);
  }, 120_000);
});
