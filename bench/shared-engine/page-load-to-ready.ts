import type { BrowserContext } from "playwright-core";
import { openHarnessPage, prepareHarness, readyAt, startHarness, type HarnessStart } from "./local-page-harness.js";

/** Page load to `ready` (the page's clock) in a second tab, and on the first tab's next page. */
export interface PageLoadToReady {
  secondTab: number;
  nextPage: number;
  /** The adapter's own part of each: from its creation to `ready` (the rest is the page's load and the bench's calls into it). */
  secondTabAdapter: number;
  nextPageAdapter: number;
}

/**
 * One run in a fresh profile (its own storage and workers): the first tab
 * downloads and loads the model; then a second tab opens the page, and the
 * first tab goes to the next page, each until `ready`.
 */
export async function pageLoadToReady(context: BrowserContext, url: string, start: HarnessStart): Promise<PageLoadToReady> {
  const first = context.pages()[0] ?? (await context.newPage());
  await openHarnessPage(first, url);
  await startHarness(first, start);
  await prepareHarness(first);
  const second = await context.newPage();
  await openHarnessPage(second, url);
  const secondStarted = await startHarness(second, start);
  const secondTab = await readyAt(second);
  await openHarnessPage(first, `${url}?next`);
  const nextStarted = await startHarness(first, start);
  const nextPage = await readyAt(first);
  return { secondTab, nextPage, secondTabAdapter: secondTab - secondStarted, nextPageAdapter: nextPage - nextStarted };
}
