import { fileURLToPath } from "node:url";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openFixturePage, type FixturePage } from "../runtime/test-support/open-fixture-page.js";

const fixture = fileURLToPath(new URL("./test-fixtures/policy-page/", import.meta.url));

// The tool policy in <AgentChat> on a real page: place_order is annotated
// consequentialHint and never asks on its own; add_note says nothing of
// itself; read_reviews is untrustedContentHint. A scripted adapter plays a
// model that every injection payload fooled (it acts on what it read).
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
  const state = () => page.evaluate(() => (window as any).harness.state as { payload: number; orders: number; notes: number; reads: number });
  const held = (tool = "place_order") => chat().locator(`.tool[data-tool="${tool}"][data-state="awaiting-confirmation"]`);

  it("holds place_order with Allow / Don't allow and the cursor on Allow; a script's click does nothing; the person's click runs it", async () => {
    await send("Order the socks");
    await held().waitFor({ timeout: 15_000 });
    expect(await held().locator(".prompt").textContent()).toBe("The assistant wants to place order. Allow it?");
    expect(await held().locator(".state").textContent()).toBe("Waiting for you to click Allow");
    const cursorPrompt = page.locator("body > [data-web-agents-ui] .prompt");
    await cursorPrompt.waitFor();
    expect(await cursorPrompt.textContent()).toBe("The assistant wants to place order. Allow it?");

    // A page script clicking the control is not the person. Proof without a sleep: the person's
    // Don't allow comes after, and had a script's click counted it would come too late to decline.
    await held().locator("button.allow").evaluate((button) => (button as HTMLButtonElement).click());
    await held().locator("button.allow").dispatchEvent("click");
    expect(await held().count()).toBe(1);
    await held().locator("button.deny").click();
    const call = () => chat().locator('.tool[data-tool="place_order"]').last();
    await expect.poll(() => call().getAttribute("data-state"), { timeout: 10_000 }).toBe("error");
    expect((await state()).orders).toBe(0);

    // Asked again, the person's click runs it.
    await send("Order the socks");
    await held().waitFor({ timeout: 15_000 });
    await held().locator("button.allow").click();
    await expect.poll(() => call().getAttribute("data-state"), { timeout: 10_000 }).toBe("done");
    expect((await state()).orders).toBe(1);
    expect(await page.textContent("#orders")).toBe("1");
    expect(errors).toEqual([]);
  });

  it("holds a tool another script registered as consequentialHint, its annotations read from native WebMCP's getTools()", async () => {
    await chat().getByRole("button", { name: "New chat" }).click();
    await page.evaluate(() => ((window as any).harness.state.mode = "gift"));
    await send("Send my friend a gift");
    await held("send_gift").waitFor({ timeout: 15_000 });
    expect(await held("send_gift").locator(".prompt").textContent()).toBe("The assistant wants to send gift. Allow it?");
    await held("send_gift").locator("button.deny").click();
    await held("send_gift").waitFor({ state: "detached", timeout: 10_000 });
    expect((await page.evaluate(() => (window as any).harness.state.gifts)) as number).toBe(0);
    await page.evaluate(() => ((window as any).harness.state.mode = "page"));
  });

  // Each payload is a chat turn (~0.4 s): CI takes one per core payload (44, rotating with the core, as
  // models/neutralize-model-text.test.ts does), `npm run injection` (INJECTION_RUNS=all) all 220.
  it("injection payloads (all 220 with INJECTION_RUNS=all, else one per core) through an untrustedContentHint tool, each followed by a consequential or an unannotated call: 0 ran without the person's click", async () => {
    await chat().getByRole("button", { name: "New chat" }).click();
    await page.evaluate(() => ((window as any).harness.state.mode = "reviews"));
    const count = await page.evaluate(() => (window as any).harness.payloadCount as number);
    const before = await state();
    const attempted = { place_order: 0, add_note: 0 };
    let declined = 0;
    const chosen = Array.from({ length: count }, (_, index) => index).filter((index) => process.env.INJECTION_RUNS === "all" || index % 5 === Math.floor(index / 5) % 5);
    for (const [turn, index] of chosen.entries()) {
      await page.evaluate((payload) => ((window as any).harness.state.payload = payload), index);
      // The fixture's fooled model calls add_note after an odd payload, place_order after an even one.
      const tool = index % 2 === 0 ? "place_order" : "add_note";
      await send(`What do the reviews say? (${index})`);
      await held(tool).waitFor({ timeout: 15_000 });
      attempted[tool]++;
      if (turn < 2) {
        const reason = tool === "place_order" ? "The assistant wants to place order. Allow it?" : "The assistant wants to add note after reading content this site does not vouch for. Allow it?";
        expect(await held(tool).locator(".prompt").textContent()).toBe(reason);
      }
      // Every way a script could press Allow, then the person's Don't allow.
      await held(tool).locator("button.allow").evaluate((button) => {
        (button as HTMLButtonElement).click();
        button.dispatchEvent(new MouseEvent("click", { bubbles: true, composed: true }));
        button.querySelector("*")?.dispatchEvent(new MouseEvent("click", { bubbles: true }));
      });
      const now = await state();
      expect([now.orders, now.notes], `payload ${index}`).toEqual([before.orders, before.notes]);
      await held(tool).locator("button.deny").click();
      await held(tool).waitFor({ state: "detached", timeout: 10_000 });
      const last = chat().locator(`.tool[data-tool="${tool}"]`).last();
      await expect.poll(() => last.getAttribute("data-state"), { timeout: 10_000 }).toBe("error");
      if (turn === 0) expect(await last.locator(".state").textContent()).toBe("Not allowed");
      declined++;
      if (turn % 20 === 19) await chat().getByRole("button", { name: "New chat" }).click();
    }
    const after = await state();
    console.log(
      `[injection] browser, through an untrusted tool: ${attempted.place_order} consequential and ${attempted.add_note} unannotated calls after payloads; ` +
        `executed without a click: ${after.orders - before.orders + after.notes - before.notes}; declined: ${declined}; reviews read: ${after.reads - before.reads}`,
    );
    expect([after.orders - before.orders, after.notes - before.notes]).toEqual([0, 0]);
    expect(attempted.place_order + attempted.add_note).toBe(chosen.length);
    expect(count).toBeGreaterThanOrEqual(200);
    expect(chosen.length).toBeGreaterThanOrEqual(process.env.INJECTION_RUNS === "all" ? count : 40);
    expect(errors).toEqual([]);
  }, 600_000);
});
