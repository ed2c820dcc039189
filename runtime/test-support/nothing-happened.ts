import type { Page } from "playwright-core";

/*
 * Proofs that something did not happen, for browser tests, without a fixed
 * sleep: each waits for the event that would have to come first, or reads a
 * decision that is made synchronously.
 */

/**
 * A page script's click on `selector` (`element.click()`, not the person's),
 * and the agent events it set off while it ran. `waitForClick` lets a parked
 * call go (its `resume` event) synchronously inside the click's handler and
 * only for a trusted click (runtime/core/wait-for-click.ts), so an empty list
 * proves the script's click released nothing. Listens on the core's event bus
 * (runtime/core/agent-events.ts), which every copy of the module shares.
 */
export function scriptClickEvents(page: Page, selector: string): Promise<string[]> {
  return page.evaluate((target) => {
    const bus = (globalThis as Record<symbol, Set<(event: { type: string; tool?: string }) => void> | undefined>)[Symbol.for("webmcp-agents.agent-events")];
    const seen: string[] = [];
    const listener = (event: { type: string; tool?: string }) => void seen.push(`${event.type}:${event.tool ?? ""}`);
    bus?.add(listener);
    try {
      const element = document.querySelector<HTMLElement>(target);
      if (!element) throw new Error(`No element matches ${target}.`);
      element.click();
    } finally {
      bus?.delete(listener);
    }
    return seen;
  }, selector);
}

/**
 * Resolves once no model download holds its lock: every download (and the
 * cleanup after a cancelled one) runs holding `web-agents-model:<key>`
 * (worker/model-lock.ts), so after this nothing more is written or removed.
 */
export async function modelDownloadsSettled(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const { held = [], pending = [] } = await navigator.locks.query();
    const names = new Set([...held, ...pending].map((lock) => lock.name ?? "").filter((name) => name.startsWith("web-agents-model:")));
    await Promise.all([...names].map((name) => navigator.locks.request(name, async () => {})));
  });
}
