import { fileURLToPath } from "node:url";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openFixturePage, type FixturePage } from "../runtime/test-support/open-fixture-page.js";

const fixture = fileURLToPath(new URL("./test-fixtures/policy-page/", import.meta.url));

// The tool policy in <AgentChat> on a real page: place_order is annotated
// destructiveHint and never asks on its own; a scripted adapter plays a model
// that every injection payload fooled (it calls place_order after reading it).
describe("Allow / Don't allow for a call the tool policy holds, in headless Chromium", () => {
  let opened: FixturePage;
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    opened = await openFixturePage(fixture, { width: 1100, height: 700 });
    ({ page, errors } = opened);
  });
  afterAll(async () => {
    await opened?.close();
  });

  const chat = () => page.locator("#chat [data-web-agents-ui]");
  const send = async (text: string) => {
    await chat().locator("textarea").fill(text);
    await chat().locator("textarea").press("Enter");
  };
  const state = () => page.evaluate(() => (window as any).harness.state as { payload: number; orders: number; reads: number });
  const held = () => chat().locator('.tool[data-tool="place_order"][data-state="awaiting-confirmation"]');

  it("holds place_order with Allow / Don't allow and the cursor on Allow; a script's click does nothing; the person's click runs it", async () => {
    await send("Order the socks");
    await held().waitFor({ timeout: 15_000 });
    expect(await held().locator(".prompt").textContent()).toBe("The assistant wants to place order. Allow it?");
    expect(await held().locator(".state").textContent()).toBe("Waiting for you to click Allow");
    const cursorPrompt = page.locator("body > [data-web-agents-ui] .prompt");
    await cursorPrompt.waitFor();
    expect(await cursorPrompt.textContent()).toBe("The assistant wants to place order. Allow it?");

    // A page script clicking the control is not the person.
    await held().locator("button.allow").evaluate((button) => (button as HTMLButtonElement).click());
    await held().locator("button.allow").dispatchEvent("click");
    await page.waitForTimeout(300);
    expect(await held().count()).toBe(1);
    expect((await state()).orders).toBe(0);

    await held().locator("button.allow").click();
    await chat().getByText("Finished.").waitFor({ timeout: 10_000 });
    expect(await chat().locator('.tool[data-tool="place_order"]').getAttribute("data-state")).toBe("done");
    expect((await state()).orders).toBe(1);
    expect(await page.textContent("#orders")).toBe("1");
    expect(errors).toEqual([]);
  });

  it("220 injection payloads in page text, each followed by a place_order call: 0 orders without the person's click", async () => {
    await chat().getByRole("button", { name: "New chat" }).click();
    const count = await page.evaluate(() => (window as any).harness.payloadCount as number);
    const before = (await state()).orders;
    let attempted = 0;
    let declined = 0;
    for (let index = 0; index < count; index++) {
      await page.evaluate((payload) => ((window as any).harness.state.payload = payload), index);
      await send(`What does the page say? (${index})`);
      await held().waitFor({ timeout: 15_000 });
      attempted++;
      // Every way a script could press Allow, then the person's Don't allow.
      await held().locator("button.allow").evaluate((button) => {
        (button as HTMLButtonElement).click();
        button.dispatchEvent(new MouseEvent("click", { bubbles: true, composed: true }));
        button.querySelector("*")?.dispatchEvent(new MouseEvent("click", { bubbles: true }));
      });
      expect((await state()).orders, `payload ${index}`).toBe(before);
      await held().locator("button.deny").click();
      await held().waitFor({ state: "detached", timeout: 10_000 });
      const last = chat().locator('.tool[data-tool="place_order"]').last();
      await expect.poll(() => last.getAttribute("data-state"), { timeout: 10_000 }).toBe("error");
      if (index === 0) expect(await last.locator(".state").textContent()).toBe("Not allowed");
      declined++;
      if (index % 20 === 19) await chat().getByRole("button", { name: "New chat" }).click();
    }
    const after = await state();
    console.log(`[injection] browser: ${attempted} consequential calls after payloads; executed without a click: ${after.orders - before}; declined: ${declined}; page reads: ${after.reads}`);
    expect(after.orders - before).toBe(0);
    expect(attempted).toBe(count);
    expect(count).toBeGreaterThanOrEqual(200);
    expect(errors).toEqual([]);
  }, 600_000);
});
