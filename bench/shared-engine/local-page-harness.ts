import type { Page } from "playwright-core";

/** What the bench starts the local adapter's fixture page with (its `StartOptions`, the part used here). */
export interface HarnessStart {
  /** `test-tiny` or `test-scripted`: the catalog entry the page picks. */
  model: string;
  baseUrl: string;
  shared: boolean;
  /** Serve `test-scripted`'s entry from another built folder (the 0.6B-shaped model's). */
  scriptedBuild?: { repo: string; files: { path: string; bytes: number }[] };
}

/** The part of the fixture page's `window.harness` (runtime/adapters/local/test-fixtures/local-page/page.ts) the bench calls. */
interface Harness {
  start(options: HarnessStart): Promise<void>;
  status(): { state: string };
  prepare(): Promise<void>;
  times(): { startedAt?: number; readyAt?: number };
}
declare const harness: Harness;

/** Loads the fixture page at `url`, until its script has run. */
export async function openHarnessPage(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.waitForSelector("body[data-ready=true]", { state: "attached" });
}

/**
 * Starts the page's local adapter, which finds the model on the device or
 * not; the model is not asked for yet. Resolves with the page's clock when
 * the adapter was created.
 */
export function startHarness(page: Page, start: HarnessStart): Promise<number> {
  return page.evaluate((start) => {
    const startedAt = performance.now();
    return harness.start(start).then(() => startedAt);
  }, start);
}

/** Downloads the model if it is not on the device yet, and loads it. */
export async function prepareHarness(page: Page): Promise<void> {
  await page.evaluate(() => harness.prepare());
}

/** The page at `url` with its adapter started as it loads (the fixture page's `#start=`). */
export function startingOnLoad(url: string, start: HarnessStart): string {
  return `${url}#start=${encodeURIComponent(JSON.stringify(start))}`;
}

/**
 * Waits for the page's adapter to be `ready`; resolves with the page's clock
 * (`performance.now()`, from its navigation start) when it was created and
 * when it said `ready`, both noted by the page itself.
 */
export async function startedAndReady(page: Page): Promise<{ startedAt: number; readyAt: number }> {
  await readyAt(page);
  return page.evaluate(() => harness.times() as { startedAt: number; readyAt: number });
}

/** Resolves with the page's clock (`performance.now()`, from its navigation start) at `ready`. */
export function readyAt(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve, reject) => {
        const check = () => {
          const { state } = harness.status();
          if (state === "ready") resolve(performance.now());
          else if (state === "needs-download" || state === "error" || state === "unavailable") reject(new Error(`The model is ${state}, not ready.`));
          else setTimeout(check, 2);
        };
        check();
      }),
  );
}
