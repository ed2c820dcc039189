import type { Page } from "playwright-core";
import { expect } from "vitest";
import { STORE_SCRIPTED_ANSWER } from "../../models/test-models/example-scripted-models.js";

/**
 * The plain-HTML Field Store's shopping flow through `<web-agents-chat>` on
 * the store's scripted model, as a person goes through it: Download, the
 * message, Allow for add_to_cart and then for place_order (with
 * `parkedCursor`, the cursor shown and parked beside each held call), the
 * answer, and the order on the page. Shared by the packed tarball's check
 * (runtime/package-build.test.ts) and the CSP one
 * (examples/content-security-policy.browser.test.ts).
 */
export async function shopThroughElement(page: Page, options: { parkedCursor?: boolean } = {}): Promise<void> {
  const chat = page.locator("web-agents-chat");
  await chat.getByRole("button", { name: /Download/ }).click({ timeout: 30_000 });
  const composer = chat.locator("textarea:not([disabled])");
  await composer.waitFor({ timeout: 60_000 });
  await composer.fill("Buy me a pair of trail socks");
  await composer.press("Enter");
  // add_to_cart, then place_order (consequentialHint): each waits for the person's Allow.
  for (const tool of ["add_to_cart", "place_order"]) {
    const allow = chat.locator(`.tool[data-tool="${tool}"]`).getByRole("button", { name: "Allow", exact: true });
    await allow.waitFor({ timeout: 60_000 });
    if (options.parkedCursor) await page.locator("[data-web-agents-ui] .layer[data-visible] .cursor[data-action=park]").waitFor({ state: "attached", timeout: 10_000 });
    await allow.click();
  }
  await chat.getByText(STORE_SCRIPTED_ANSWER).waitFor({ timeout: 60_000 });
  expect(await page.textContent("#order-status")).toBe("Ordered: Trail socks × 1.");
}
