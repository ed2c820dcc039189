import type { BrowserContext } from "playwright-core";
import { memorySnapshot, type MemorySnapshot } from "./engine-worker-memory.js";
import { openHarnessPage, prepareHarness, readyAt, startHarness, type HarnessStart } from "./local-page-harness.js";

/** The memory of two tabs of the origin, before the model and with it ready in both. */
export interface TwoTabMemory {
  /** Both pages loaded, no adapter started: no engine worker yet. */
  before: MemorySnapshot;
  /** Both adapters `ready`. */
  ready: MemorySnapshot;
}

/**
 * One run in a fresh profile (a browser of its own): two tabs of the same
 * origin load the page; then the first starts its adapter and downloads
 * and loads the model, and the second starts its own, which finds the model
 * on the device. `ready.rendererPss - before.rendererPss` is what the
 * engines (and each page's adapter) added.
 */
export async function twoTabMemory(context: BrowserContext, url: string, start: HarnessStart): Promise<TwoTabMemory> {
  const first = context.pages()[0] ?? (await context.newPage());
  const second = await context.newPage();
  await openHarnessPage(first, url);
  await openHarnessPage(second, url);
  const before = await memorySnapshot(context);
  await startHarness(first, start);
  await prepareHarness(first);
  await startHarness(second, start);
  await readyAt(second);
  return { before, ready: await memorySnapshot(context) };
}
