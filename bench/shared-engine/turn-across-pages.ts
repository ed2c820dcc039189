import type { BrowserContext } from "playwright-core";
import { engineWorkerTypes } from "./engine-worker-memory.js";
import { TWO_PAGE_TURN_ANSWER } from "./two-page-turn-model.js";

/** One turn's times, in milliseconds. */
export interface TurnAcrossPages {
  /** From the Enter key on the product page to the answer shown on the cart page. */
  total: number;
  /** From the Enter key to the cart page's navigation start: the first step, its go_to, and the product page's unload. */
  toCartPage: number;
  /** From the cart page's navigation start to the answer: its load, the adapter's ready, the turn's next step. */
  onCartPage: number;
}

/** The store's script, built (`assets/store-<hash>.js`) or from source (`multi-page/store.js`). */
const STORE_SCRIPT = /\/(assets\/store-[\w-]+|multi-page\/store)\.js$/;
const SHARED_WORKER = /worker:\s*\{\s*shared:\s*true\s*\}/g;

/**
 * Serves the store's script as it is (`worker: { shared: true }`) or with
 * the dedicated worker instead, the one change between the two figures.
 * Both go through the same route, so both pay the same for it. Resolves
 * with a reader of how many scripts it changed, for after the run.
 */
async function chooseEngine(context: BrowserContext, shared: boolean): Promise<() => number> {
  let changed = 0;
  await context.route(STORE_SCRIPT, async (route) => {
    const response = await route.fetch();
    const text = await response.text();
    const body = shared ? text : text.replace(SHARED_WORKER, "worker: { shared: false }");
    if (body !== text) changed += 1;
    await route.fulfill({ response, body });
  });
  return () => changed;
}

/**
 * On every page of the context: the moment the person presses Enter (a
 * keydown on the window, where the chat's composer's event arrives), and the
 * moment the answer is in the chat's shadow root on the cart page (checked
 * each frame), as `performance.timeOrigin + performance.now()` in
 * sessionStorage, which the tab keeps across its page loads. Both on one
 * clock, the wall clock of the same machine. The chat renders into the
 * open shadow root of a `[data-web-agents-ui]` host (widget/shadow-host.tsx).
 */
function recordSendAndAnswer(answer: string): void {
  const now = () => String(performance.timeOrigin + performance.now());
  const recordSend = (event: KeyboardEvent) => {
    if (event.key === "Enter" && !sessionStorage.getItem("bench:sentAt")) sessionStorage.setItem("bench:sentAt", now());
  };
  window.addEventListener("keydown", recordSend, { capture: true });
  if (!location.pathname.endsWith("/cart.html")) return;
  if (!sessionStorage.getItem("bench:cartAt")) sessionStorage.setItem("bench:cartAt", String(performance.timeOrigin));
  const check = () => {
    const hosts = [...document.querySelectorAll("web-agents-chat [data-web-agents-ui]")];
    if (hosts.some((host) => host.shadowRoot?.textContent?.includes(answer))) sessionStorage.setItem("bench:answeredAt", now());
    else requestAnimationFrame(check);
  };
  requestAnimationFrame(check);
}

/**
 * One turn of the bench's scripted shopper (two-page-turn-model.ts) in a
 * fresh profile: the product page of the trail socks, the model downloaded
 * and loaded there (the Download button, as in multi-page.browser.test.ts),
 * then the person's message; the model calls `go_to` cart, the cart page
 * loads, the turn goes on there and answers. Resolves with the milliseconds
 * from the Enter key to the answer on the cart page, and the split at the
 * cart page's navigation start (its `performance.timeOrigin`).
 */
export async function turnAcrossPages(context: BrowserContext, origin: string, shared: boolean): Promise<TurnAcrossPages> {
  const changedScripts = await chooseEngine(context, shared);
  await context.addInitScript(recordSendAndAnswer, TWO_PAGE_TURN_ANSWER);
  const page = context.pages()[0] ?? (await context.newPage());
  await page.goto(`${origin}/multi-page/product.html?id=trail-socks`);
  await page.waitForSelector("body[data-ready=true]");
  const chat = page.locator("web-agents-chat");
  await chat.getByRole("button", { name: /Download/ }).click({ timeout: 60_000 });
  const composer = chat.locator("textarea:not([disabled])");
  await composer.waitFor({ timeout: 120_000 });
  await composer.fill("Show me my cart");
  await composer.press("Enter");
  await page.waitForURL(/\/multi-page\/cart\.html$/, { timeout: 60_000 });
  await page.waitForFunction(() => sessionStorage.getItem("bench:answeredAt") !== null, undefined, { timeout: 60_000 });
  if (!shared && changedScripts() === 0) throw new Error("The store's script was not switched to the dedicated worker: its `worker: { shared: true }` was not found.");
  const engines = await engineWorkerTypes(context);
  if (engines.join() !== (shared ? "shared_worker" : "worker")) throw new Error(`Expected the engine in a ${shared ? "SharedWorker" : "dedicated worker"}; found ${engines.join(", ") || "none"}.`);
  return page.evaluate(() => {
    const [sentAt, cartAt, answeredAt] = ["bench:sentAt", "bench:cartAt", "bench:answeredAt"].map((key) => Number(sessionStorage.getItem(key)));
    return { total: answeredAt! - sentAt!, toCartPage: cartAt! - sentAt!, onCartPage: answeredAt! - cartAt! };
  });
}
