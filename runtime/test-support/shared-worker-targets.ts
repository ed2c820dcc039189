import type { Browser } from "playwright-core";

/** The browser's SharedWorker targets, read over CDP: Playwright lists a page's dedicated workers only. */
export async function sharedWorkerTargets(browser: Browser): Promise<{ targetId: string; url: string }[]> {
  const cdp = await browser.newBrowserCDPSession();
  try {
    const { targetInfos } = await cdp.send("Target.getTargets");
    return targetInfos.filter((target) => target.type === "shared_worker").map(({ targetId, url }) => ({ targetId, url }));
  } finally {
    await cdp.detach();
  }
}
