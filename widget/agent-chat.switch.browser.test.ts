import { fileURLToPath } from "node:url";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openFixturePage, type FixturePage } from "../runtime/test-support/open-fixture-page.js";

const fixture = fileURLToPath(new URL("./test-fixtures/switch-page/", import.meta.url));

// Switching adapters swaps the adapter inside the chat's one session
// (setOptions): with storageKey: false nothing is stored, and the
// conversation still carries over, in a chat's own session and in one given
// to it (<AgentChat session>). StrictMode, scripted adapters.
describe("<AgentChat>: switching adapters keeps the conversation", () => {
  let opened: FixturePage;
  let page: Page;

  beforeAll(async () => {
    opened = await openFixturePage(fixture, { width: 900, height: 700 });
    page = opened.page;
  });
  afterAll(async () => {
    await opened?.close();
  });

  const chat = (where: string) => page.locator(`${where} [data-web-agents-ui]`);
  const send = async (where: string, text: string) => {
    await chat(where).locator("textarea").fill(text);
    await chat(where).locator("textarea").press("Enter");
  };
  const texts = (where: string) => chat(where).locator(".message").allTextContents();

  it.each([
    { where: "#own", which: "own" },
    { where: "#given", which: "given" },
  ])("$which session: the second adapter is sent the whole conversation, and the chat shows it all", async ({ where, which }) => {
    await send(where, "Hello");
    await expect.poll(() => texts(where), { timeout: 10_000 }).toEqual(["You: Hello", "One read 1 messages."]);

    await chat(where).locator(".switcher select").selectOption({ label: "Two" });
    // The conversation is still there after the switch, before anything is sent.
    await expect.poll(() => chat(where).locator(".switcher select").inputValue()).toBe(`${which}-two`);
    expect(await texts(where)).toEqual(["You: Hello", "One read 1 messages."]);

    await send(where, "And now?");
    await expect.poll(() => texts(where), { timeout: 10_000 }).toEqual(["You: Hello", "One read 1 messages.", "You: And now?", "Two read 2 messages."]);
    // The messages each adapter was sent: one's first run, then two's run with all three before its reply.
    expect(await page.evaluate((w) => (window as any).harness.requests(w), which)).toEqual([[1], [3]]);
    if (which === "given") expect(await page.evaluate(() => (window as any).harness.sessionAdapter())).toBe("given-two");
    expect(opened.errors).toEqual([]);
  }, 30_000);
});
