import type { BrowserContext } from "playwright-core";
import { openHarnessPage, prepareHarness, startedAndReady, startHarness, startingOnLoad, type HarnessStart } from "./local-page-harness.js";

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
 * first tab goes to the next page, each until `ready`. Those two pages start
 * their adapter as they load, as a site's page does; both times are the
 * page's own notes, with no call from the bench in between.
 */
export async function pageLoadToReady(context: BrowserContext, url: string, start: HarnessStart): Promise<PageLoadToReady> {
  const first = context.pages()[0] ?? (await context.newPage());
  await openHarnessPage(first, url);
  await startHarness(first, start);
  await prepareHarness(first);
  const second = await context.newPage();
  await openHarnessPage(second, startingOnLoad(url, start));
  const secondTab = await startedAndReady(second);
  await openHarnessPage(first, startingOnLoad(`${url}?next`, start));
  const nextPage = await startedAndReady(first);
  return {
    secondTab: secondTab.readyAt,
    nextPage: nextPage.readyAt,
    secondTabAdapter: secondTab.readyAt - secondTab.startedAt,
    nextPageAdapter: nextPage.readyAt - nextPage.startedAt,
  };
}
