// The Field Store from the config `npm start` serves (built once per run,
// examples/test-support/serve-examples.ts), in headless Chromium, with the
// browser's own model offered first: createBuiltInAdapter over a double of
// the Prompt API (runtime/test-support/language-model-double/, installed as
// `LanguageModel` before any page script, as a browser exposes its own). No
// built-in model runs here: the double plays a scripted shopper and checks
// each reply against the step's responseConstraint. The chat shows each
// status: the download card, the download's progress, the model starting,
// then the conversation: add to cart, place the order on the person's click,
// the answer.
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveExamples, type ExamplesServer } from "../../../examples/test-support/serve-examples.js";
import { launchChromium } from "../../test-support/launch-chromium.js";
import { languageModelDoubleScript } from "../../test-support/language-model-double/language-model-double-bundle.js";
import { PAGE_READY_MS } from "../../test-support/page-ready.js";

const ANSWER = "Done: your trail socks are ordered. You can follow the order on the orders page.";
const reply = (value: unknown) => JSON.stringify(value);
/** The scripted shopper's replies, one per step, as the constraint admits them. */
const REPLIES = [
  reply({ calls: [{ tool: "go_to", arguments: { page: "product/trail-socks" } }] }),
  reply({ calls: [{ tool: "add_to_cart", arguments: { quantity: 1 } }] }),
  reply({ calls: [{ tool: "go_to", arguments: { page: "cart" } }] }),
  reply({ calls: [{ tool: "place_order", arguments: {} }] }),
  reply({ answer: ANSWER }),
];

interface Controller {
  progress(loaded: number): void;
  completeDownload(): void;
  completeLoad(): void;
  readonly clones: number;
  readonly calls: readonly { kind: string; input: { role: string; content: string }[] }[];
}

describe("Field Store on the browser's own model (a double of the Prompt API)", () => {
  let server: ExamplesServer;
  let origin: string;
  let browser: Browser;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    server = await serveExamples({ crossOriginIsolated: false });
    origin = server.origin;
    browser = await launchChromium({ webmcp: true });
    const context = await browser.newContext({ viewport: { width: 1280, height: 760 } });
    await context.addInitScript({ content: await languageModelDoubleScript({ availability: "downloadable", download: "manual", replies: REPLIES }) });
    page = await context.newPage();
    page.on("pageerror", (error) => errors.push(error.message));
    page.on("console", (message) => {
      if (message.type() === "error" && !message.location().url.endsWith("/favicon.ico")) errors.push(message.text());
    });
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const chat = () => page.locator("#chat [data-web-agents-ui]");
  const double = <T>(action: (controller: Controller) => T) =>
    page.evaluate(`(${action.toString()})(globalThis.languageModelDouble)`) as Promise<T>;

  it("offers it first, shows the download card, the progress and the start, then shops: add to cart, the order on the person's click, the answer", async () => {
    await page.goto(`${origin}/field-store/`);
    await page.waitForSelector("body[data-ready=true]", { timeout: PAGE_READY_MS });
    await page.click("#open-chat");

    // Offered first, by its label.
    const switcher = chat().locator(".switcher select");
    await expect.poll(() => switcher.inputValue(), { timeout: 30_000 }).toBe("built-in");
    expect(await switcher.locator("option").allTextContents()).toEqual(["Built into this browser", "On this device", "Cloud"]);

    // needs-download: the card says the browser downloads it once, for every site.
    const card = chat().locator('section[aria-label="Download the model"]');
    await card.waitFor({ timeout: 30_000 });
    expect(await card.textContent()).toContain("Your browser downloads its built-in model once, for every site that uses it: about 4 GB");
    await card.locator("button", { hasText: "Download" }).click();

    // downloading: the browser's downloadprogress, as the card's progress.
    const downloading = chat().locator('section[aria-label="Downloading the model"]');
    await downloading.waitFor();
    await double((controller) => controller.progress(0.5));
    await downloading.getByText("50%").waitFor();
    // loading: downloaded, the model starting.
    await double((controller) => controller.completeDownload());
    await chat().locator('section[aria-label="Starting the model"]').waitFor();
    // ready: the composer takes a message.
    await double((controller) => controller.completeLoad());
    const composer = chat().locator("textarea");
    await expect.poll(() => composer.isEnabled(), { timeout: 10_000 }).toBe(true);

    await composer.fill("Buy me a pair of trail socks");
    await composer.press("Enter");
    const parked = chat().locator('.tool[data-tool="place_order"][data-state="awaiting-confirmation"]');
    await parked.waitFor({ timeout: 30_000 }).catch(async (error: unknown) => {
      const text = await chat().evaluate((host) => (host.shadowRoot ?? host).textContent);
      throw new Error(`${(error as Error).message}\nThe chat: ${text}\nPage errors: ${errors.join("\n")}`);
    });
    expect(page.url()).toMatch(/#\/cart$/);
    expect(await page.textContent("#cart-badge")).toBe("1");
    expect(await chat().locator('.tool[data-tool="add_to_cart"]').getAttribute("data-state")).toBe("done");
    await page.click("#place-order");
    await chat().getByText(ANSWER).waitFor({ timeout: 30_000 });
    expect(await page.textContent("#cart-badge")).toBe("0");

    // One clone of the base session for the conversation, and each step sent only what was new.
    const prompts = await double((controller) => ({ clones: controller.clones, inputs: controller.calls.filter((call) => call.kind === "prompt").map((call) => call.input.map((message) => message.content.slice(0, 20))) }));
    expect(prompts.clones).toBe(1);
    expect(prompts.inputs[0]).toEqual(["Buy me a pair of tra"]);
    expect(prompts.inputs.slice(1).map((input) => input[0])).toEqual(["[Result of go_to]\nOp", "[Result of add_to_ca", "[Result of go_to]\nOp", "[Result of place_ord"]);

    await page.click('[data-nav="orders"]');
    await page.locator('[data-order="FS-1001"]').waitFor();
    expect(await page.textContent('[data-order="FS-1001"]')).toContain("Trail socks × 1");
    expect(errors).toEqual([]);
  }, 120_000);
});
