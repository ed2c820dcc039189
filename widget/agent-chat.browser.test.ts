import { mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openFixturePage, type FixturePage } from "../runtime/test-support/open-fixture-page.js";
import type { AgentMessage, ToolPart } from "../runtime/session/agent-message.js";
import { PAGE_READY_MS } from "../runtime/test-support/page-ready.js";
import { scriptClickEvents } from "../runtime/test-support/nothing-happened.js";

const fixture = fileURLToPath(new URL("./test-fixtures/chat-page/", import.meta.url));
const results = fileURLToPath(new URL("../test-results/", import.meta.url));

// <AgentChat> on a real page: native WebMCP, the tools registered under
// StrictMode through <WebAgentsProvider>, a scripted adapter.
describe("<AgentChat> in headless Chromium", () => {
  let opened: FixturePage;
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    mkdirSync(results, { recursive: true });
    opened = await openFixturePage(fixture, { width: 1100, height: 700 });
    ({ page, errors } = opened);
  });
  afterAll(async () => {
    await opened?.close();
  });

  // Playwright's CSS selectors pierce open shadow roots.
  const chat = () => page.locator("#chat [data-web-agents-ui]");
  const send = async (text: string) => {
    await chat().locator("textarea").fill(text);
    await chat().locator("textarea").press("Enter");
  };
  const toolCalls = () => page.evaluate(() => (window as any).harness.log.calls as string[]);

  it("parks a confirm-gated tool, with the cursor on its control, until the person's real click", async () => {
    await send("Buy the socks");
    const parked = chat().locator('.tool[data-tool="place_order"][data-state="awaiting-confirmation"]');
    await parked.waitFor({ timeout: 15_000 });
    await expect(parked.locator(".prompt").textContent()).resolves.toBe("Click Place order to confirm.");
    const cursorPrompt = page.locator("body > [data-web-agents-ui] .prompt");
    await cursorPrompt.waitFor();
    expect(await cursorPrompt.textContent()).toBe("Click Place order to confirm.");
    // The cursor waits beside the control it points at, level with it, never over its label.
    const target = (await page.locator("#place-order").boundingBox())!;
    const cursor = page.locator("body > [data-web-agents-ui] .cursor");
    const transform = await cursor.evaluate((element) => (element as HTMLElement).style.transform);
    const [x, y] = transform.match(/-?\d+/g)!.map(Number);
    const side = await cursor.getAttribute("data-side");
    expect(side === "right" ? x! - (target.x + target.width) : target.x - x!).toBeGreaterThanOrEqual(0);
    expect(side === "right" ? x! - (target.x + target.width) : target.x - x!).toBeLessThanOrEqual(12);
    expect(Math.abs(y! - (target.y + target.height / 2))).toBeLessThanOrEqual(1);
    // The page's styles stay out: the chat's buttons are not hotpink.
    const background = await chat().locator("button", { hasText: "New chat" }).evaluate((element) => getComputedStyle(element).backgroundColor);
    expect(background).not.toBe("rgb(255, 105, 180)");
    await page.screenshot({ path: `${results}agent-chat-parked.png` });

    // It waits for the person: a script's click releases nothing.
    expect(await scriptClickEvents(page, "#place-order")).toEqual([]);
    expect(await parked.count()).toBe(1);
    await page.click("#place-order");
    await chat().getByText("Ordered: order 7.").waitFor({ timeout: 10_000 });
    expect(await chat().locator('.tool[data-tool="place_order"]').getAttribute("data-state")).toBe("done");
    expect(await toolCalls()).toEqual(["add_to_cart", "write_note", "place_order"]);
    expect(await page.inputValue("#note")).toBe("Happy birthday!");
    await page.screenshot({ path: `${results}agent-chat.png` });
  });

  it("Stop ends a streaming reply", async () => {
    await send("Tell me a long story");
    await chat().getByText("part3", { exact: false }).waitFor({ timeout: 10_000 });
    await chat().locator("button", { hasText: "Stop" }).click();
    await chat().locator("button", { hasText: "Send" }).waitFor();
    // The adapter's run has ended (it yields nothing after): the reply stops where it was.
    await expect.poll(() => page.evaluate(() => (window as any).harness.adapter.requests.at(-1).ended)).toBe("aborted");
    const text = await chat().locator(".log").textContent();
    expect(text).not.toContain("part79");
    expect(await chat().locator(".log").textContent()).toBe(text);
  });

  it("Try again after a network error resumes without repeating the finished tool call", async () => {
    await send("Add one more");
    const alert = chat().locator('.error[role="alert"]');
    await alert.waitFor({ timeout: 10_000 });
    expect(await alert.textContent()).toContain("Couldn't reach the assistant. Check your connection, then try again.");
    expect(await page.evaluate(() => (window as any).harness.cart())).toBe(2);
    await page.screenshot({ path: `${results}agent-chat-error.png` });

    await alert.locator("button", { hasText: "Try again" }).click();
    await chat().getByText("Resumed after the cart").waitFor({ timeout: 10_000 });
    expect(await page.evaluate(() => (window as any).harness.cart())).toBe(2);
    expect(await toolCalls()).toEqual(["add_to_cart", "write_note", "place_order", "add_to_cart"]);
    const retried = await page.evaluate(() => {
      const requests = (window as any).harness.adapter.requests as { messages: AgentMessage[] }[];
      return requests.at(-1)!.messages;
    });
    const lastPart = retried.at(-1)!.parts.at(-1) as ToolPart;
    expect(lastPart).toMatchObject({ name: "add_to_cart", state: "done" });
  });

  it("restores the conversation after a reload", async () => {
    await page.reload();
    await page.waitForSelector("body[data-ready=true]", { timeout: PAGE_READY_MS });
    await chat().getByText("Resumed after the cart").waitFor({ timeout: 10_000 });
    const log = chat().locator(".log");
    expect(await log.textContent()).toContain("Ordered: order 7.");
    expect(await chat().locator('.log > .message[data-role="user"]').count()).toBe(3);
    expect(await chat().locator('.tool[data-tool="place_order"]').getAttribute("data-state")).toBe("done");
    await page.screenshot({ path: `${results}agent-chat-restored.png` });
    await page.emulateMedia({ colorScheme: "dark" });
    const dark = await chat().locator(".root").evaluate((element) => getComputedStyle(element).backgroundColor);
    expect(dark).toBe("rgb(23, 25, 29)");
    await page.screenshot({ path: `${results}agent-chat-dark.png` });
    expect(errors).toEqual([]);
  });
});
