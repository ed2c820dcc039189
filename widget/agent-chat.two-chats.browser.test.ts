import { fileURLToPath } from "node:url";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openFixturePage, type FixturePage } from "../runtime/test-support/open-fixture-page.js";

const fixture = fileURLToPath(new URL("./test-fixtures/two-chats-page/", import.meta.url));

// Two chats on one page, native WebMCP: confirmation state is matched by call
// id, so each chat marks its own calls of the one tool they share.
describe("two <AgentChat>s in headless Chromium", () => {
  let opened: FixturePage;
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    opened = await openFixturePage(fixture, { width: 1200, height: 700 });
    ({ page, errors } = opened);
  });
  afterAll(async () => {
    await opened?.close();
  });

  const chat = (where: string) => page.locator(`${where} [data-web-agents-ui]`);
  const states = (where: string) =>
    chat(where)
      .locator(".tool")
      .evaluateAll((tools) => tools.map((tool) => `${tool.getAttribute("data-state")}: ${tool.querySelector(".prompt")?.textContent ?? ""}`));

  it("marks each chat's calls of one tool, two at once, and only the clicked one resumes", async () => {
    for (const where of ["#first", "#second"]) {
      await chat(where).locator("textarea").fill("Go");
      await chat(where).locator("textarea").press("Enter");
    }
    const parked = (where: string) => chat(where).locator('.tool[data-state="awaiting-confirmation"]').count();
    await expect.poll(() => parked("#first"), { timeout: 15_000 }).toBe(2);
    await expect.poll(() => parked("#second"), { timeout: 15_000 }).toBe(1);
    expect(await states("#first")).toEqual(["awaiting-confirmation: Click A.", "awaiting-confirmation: Click B."]);
    expect(await states("#second")).toEqual(["awaiting-confirmation: Click C."]);
    // Each chat's cursor follows its own conversation's calls (the first's, its latest park).
    // (The cursors' drawing loads on first use: wait for both to show.)
    const cursorPrompts = async () => (await page.locator("body > [data-web-agents-ui] .prompt").allTextContents()).sort();
    await expect.poll(async () => (await cursorPrompts()).length, { timeout: 15_000 }).toBe(2);
    expect([["Click A.", "Click C."], ["Click B.", "Click C."]]).toContainEqual(await cursorPrompts());

    await page.click("#b");
    // B's call is done as its tool returns (runtime/session/run-agent-loop.ts), while A's still waits.
    await chat("#first").locator('.tool[data-state="done"]').waitFor({ timeout: 10_000 });
    expect(await states("#first")).toEqual(["awaiting-confirmation: Click A.", "done: "]);
    expect(await states("#second")).toEqual(["awaiting-confirmation: Click C."]);

    await page.click("#c");
    await chat("#second").getByText("second done.").waitFor({ timeout: 10_000 });
    expect(await states("#second")).toEqual(["done: "]);
    expect(await states("#first")).toEqual(["awaiting-confirmation: Click A.", "done: "]);

    await page.click("#a");
    await chat("#first").getByText("first done.").waitFor({ timeout: 10_000 });
    expect(await states("#first")).toEqual(["done: ", "done: "]);
    expect(errors).toEqual([]);
  });
});
