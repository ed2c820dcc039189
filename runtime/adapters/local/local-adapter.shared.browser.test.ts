import type { Browser, Page } from "playwright-core";
import type { Plugin } from "vite";
import { describe, expect, it } from "vitest";
import { buySocks, open, setUp, step, waitFor } from "./test-fixtures/browser-harness.js";
import { ONE_MODEL_PAGE_MS, TWO_MODEL_LOADS_MS } from "../../test-support/model-test-timeouts.js";
import { sharedWorkerTargets } from "../../test-support/shared-worker-targets.js";

/** Stops the shared worker as the browser would (out of memory, a crash): its target is closed. */
async function killSharedWorker(browser: Browser, targetId: string): Promise<void> {
  const cdp = await browser.newBrowserCDPSession();
  try {
    await cdp.send("Target.closeTarget", { targetId });
  } finally {
    await cdp.detach();
  }
}

/**
 * The network for the model's files, cut on the server: a SharedWorker's
 * requests are not the page's, so Playwright's routes and setOffline do not
 * reach them. While `cut` is on, every model file request is counted and its
 * connection dropped, as a device with no network fails it.
 */
const modelNetwork = { cut: false, refused: [] as string[] };
const cutModelFiles: Plugin = {
  name: "cut-model-files",
  enforce: "pre",
  configureServer(server) {
    server.middlewares.use((request, _response, next) => {
      if (!modelNetwork.cut || !/^\/models\/test\//.test(request.url ?? "")) return next();
      modelNetwork.refused.push(request.url ?? "");
      request.socket.destroy();
    });
  },
};

const start = (page: Page, model: string, extra: { maxNewTokens?: number } = {}) =>
  page.evaluate(([model, extra]) => harness.start({ model, baseUrl: "/models/test", shared: true, ...extra }), [model, extra] as const);
const readyOrNeedsDownload = (page: Page) => waitFor(page, () => harness.status(), (status) => status.state === "ready" || status.state === "needs-download", "the probe");

describe("worker.shared in headless Chromium: one engine in a SharedWorker for every tab of the origin", () => {
  const state = setUp(false, [cutModelFiles]);

  it("a second tab is ready without loading the model again (one model read), and two tabs sending at once both answer, each in its own conversation", async () => {
    const a = await open(state.context, state.server.url);
    await start(a, "test-scripted");
    expect(await readyOrNeedsDownload(a)).toMatchObject({ state: "needs-download" });
    await a.evaluate(() => harness.prepare());
    step("shared: tab A downloaded and loaded");

    const b = await open(state.context, state.server.url);
    await start(b, "test-scripted");
    await waitFor(b, () => harness.status(), (status) => status.state === "ready", "tab B ready");
    // A load that reads the model's files reports 0 first; one the shared engine already holds, only 1.
    const [aLoads, bLoads] = await Promise.all([a.evaluate(() => harness.loads()), b.evaluate(() => harness.loads())]);
    expect(aLoads).toHaveLength(1);
    expect(aLoads[0]![0]).toEqual({ progress: 0 });
    expect(bLoads).toEqual([[{ progress: 1 }]]);
    // One engine: a SharedWorker, and no dedicated worker in either tab.
    expect(await sharedWorkerTargets(state.browser)).toHaveLength(1);
    expect([a.workers().length, b.workers().length]).toEqual([0, 0]);

    // Both at the same moment: the engine runs them in turn, and each tab gets its own answer.
    await Promise.all([buySocks(a, 0), buySocks(b, 0)]);
    for (const page of [a, b]) {
      const { messages } = await page.evaluate(() => harness.snapshot());
      expect(messages.filter((message) => message.role === "user").map((message) => message.parts)).toEqual([[{ type: "text", text: "Buy socks" }]]);
    }
    await Promise.all([a.close(), b.close()]);
  }, TWO_MODEL_LOADS_MS);

  it("a full-page navigation to the next page of the site keeps the model loaded (extendedLifetime): the next page is ready with no model read", async () => {
    const page = await open(state.context, state.server.url);
    await start(page, "test-scripted");
    if ((await readyOrNeedsDownload(page)).state === "needs-download") await page.evaluate(() => harness.prepare());
    await waitFor(page, () => harness.status(), (status) => status.state === "ready", "the first page ready");
    // The only page of the site goes: without extendedLifetime the worker, and the model, would go with it.
    await page.goto(`${state.server.url}?next`);
    await page.waitForSelector("body[data-ready=true]", { state: "attached" });
    await start(page, "test-scripted");
    await waitFor(page, () => harness.status(), (status) => status.state === "ready", "the next page ready");
    expect(await page.evaluate(() => harness.loads())).toEqual([[{ progress: 1 }]]);
    await buySocks(page, 0);
    await page.close();
  }, ONE_MODEL_PAGE_MS);

  it("a tab closed mid-reply has its reply cancelled in the shared worker: another tab's reply runs at once instead of waiting behind it", async () => {
    const other = await open(state.context, state.server.url);
    await start(other, "test-scripted");
    if ((await readyOrNeedsDownload(other)).state === "needs-download") await other.evaluate(() => harness.prepare());
    await waitFor(other, () => harness.status(), (status) => status.state === "ready", "the other tab's model");
    const closing = await open(state.context, state.server.url);
    // The tiny model writes until its 40,000 tokens (minutes here): a reply that runs until stopped.
    await start(closing, "test-tiny", { maxNewTokens: 40_000 });
    if ((await readyOrNeedsDownload(closing)).state === "needs-download") await closing.evaluate(() => harness.prepare());
    await waitFor(closing, () => harness.status(), (status) => status.state === "ready", "the tiny model");
    await closing.evaluate(() => harness.send("Hello"));
    await waitFor(closing, () => harness.parts().some((part) => part.type === "text-delta"), (writing) => writing, "the reply to be written");
    await closing.close();
    // The other tab's reply runs in the same engine queue: it would wait minutes behind the closed tab's
    // (buySocks waits 30 s for it to end).
    await buySocks(other, 0);
    await other.close();
  }, TWO_MODEL_LOADS_MS);

  it("the shared worker stopped mid-generation: the turn ends with a sentence to send again, and every tab loads the model again by itself, read once for all", async () => {
    const page = await open(state.context, state.server.url);
    const other = await open(state.context, state.server.url);
    // The tiny model's greedy output is blank lines the format holds back: a generation that runs until stopped.
    await start(page, "test-tiny", { maxNewTokens: 5000 });
    if ((await readyOrNeedsDownload(page)).state === "needs-download") await page.evaluate(() => harness.prepare());
    await start(other, "test-tiny");
    await waitFor(other, () => harness.status(), (status) => status.state === "ready", "the other tab ready");
    const loadsBefore = await Promise.all([page, other].map((tab) => tab.evaluate(() => harness.loads().length)));
    await page.evaluate(() => harness.send("Hello"));
    await waitFor(page, () => harness.generateCalls(), (calls) => calls > 0, "the generation to be asked for");
    const [worker] = await sharedWorkerTargets(state.browser);
    await killSharedWorker(state.browser, worker!.targetId);
    const ended = await waitFor(page, () => harness.snapshot(), (snapshot) => snapshot.status !== "streaming", "the turn to end");
    expect(ended.status).toBe("error");
    expect(ended.error?.message).toMatch(/^The on-device model stopped .*Send again to reload it\.$/);
    step("shared: the worker stopped, the turn ended");

    // Each tab's status says the model loads again, then it is ready, in a fresh worker that read it once.
    const loadsAfter = [];
    for (const [index, tab] of [page, other].entries()) {
      await waitFor(tab, () => harness.status(), (status) => status.state === "ready", "the model loaded again");
      const statuses = await tab.evaluate(() => harness.statuses().map((status) => status.state));
      expect(statuses.slice(statuses.lastIndexOf("ready", statuses.length - 2))).toContain("loading");
      loadsAfter.push(...(await tab.evaluate(() => harness.loads())).slice(loadsBefore[index]));
    }
    expect(loadsAfter).toHaveLength(2);
    expect(loadsAfter.filter((progress) => progress[0]?.progress === 0)).toHaveLength(1);
    expect(await sharedWorkerTargets(state.browser)).toHaveLength(1);
    await Promise.all([page.close(), other.close()]);
  }, TWO_MODEL_LOADS_MS);

  it("with every tab of the origin closed and its worker gone, the next page starts a new shared worker that loads the model from the cache with the network cut, and answers", async () => {
    const first = await open(state.context, state.server.url);
    await start(first, "test-scripted");
    if ((await readyOrNeedsDownload(first)).state === "needs-download") await first.evaluate(() => harness.prepare());
    await waitFor(first, () => harness.status(), (status) => status.state === "ready", "the model on the device");
    await first.close();
    // extendedLifetime may keep the worker a while after its last page: stopped here, as the browser stops it after that while.
    for (const worker of await sharedWorkerTargets(state.browser)) await killSharedWorker(state.browser, worker.targetId);
    // The target goes once the browser has stopped it: asked again until then, for 10 s at most.
    for (const until = Date.now() + 10_000; (await sharedWorkerTargets(state.browser)).length > 0 && Date.now() < until; ) await new Promise((done) => setTimeout(done, 50));
    expect(await sharedWorkerTargets(state.browser)).toEqual([]);

    modelNetwork.cut = true;
    modelNetwork.refused = [];
    try {
      const page = await open(state.context, state.server.url);
      await start(page, "test-scripted");
      await waitFor(page, () => harness.status(), (status) => status.state === "ready", "the model from the cache");
      // Read from the device (a load from 0), in the one new shared worker, with no model request sent.
      expect(await page.evaluate(() => harness.loads().map((load) => load[0]))).toEqual([{ progress: 0 }]);
      expect(await page.evaluate(() => harness.statuses().map((status) => status.state).filter((s, i, all) => s !== all[i - 1]))).toEqual(["loading", "ready"]);
      expect(await sharedWorkerTargets(state.browser)).toHaveLength(1);
      expect(page.workers()).toHaveLength(0);
      await buySocks(page, 0);
      expect(modelNetwork.refused).toEqual([]);
      await page.close();
    } finally {
      modelNetwork.cut = false;
    }
  }, TWO_MODEL_LOADS_MS);

  it("where the browser has no SharedWorker (removed before the page runs): a dedicated worker per tab, each reading the model itself, as without the option", async () => {
    const sharedBefore = (await sharedWorkerTargets(state.browser)).length;
    const context = await state.browser.newContext();
    await context.addInitScript(() => delete (globalThis as { SharedWorker?: unknown }).SharedWorker);
    try {
      const a = await open(context, state.server.url);
      await start(a, "test-scripted");
      expect(await readyOrNeedsDownload(a)).toMatchObject({ state: "needs-download" });
      await a.evaluate(() => harness.prepare());
      const b = await open(context, state.server.url);
      await start(b, "test-scripted");
      await waitFor(b, () => harness.status(), (status) => status.state === "ready", "tab B ready");
      expect((await b.evaluate(() => harness.loads()))[0]![0]).toEqual({ progress: 0 });
      expect([a.workers().length, b.workers().length]).toEqual([1, 1]);
      expect((await sharedWorkerTargets(state.browser)).length).toBe(sharedBefore);
      await buySocks(b, 0);
    } finally {
      await context.close();
    }
  }, ONE_MODEL_PAGE_MS);
});
