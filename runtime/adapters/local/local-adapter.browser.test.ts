import { expect, it, describe } from "vitest";
import { buySocks, downloadAndBuySocks, isModelFile, open, setUp, step, waitFor } from "./test-fixtures/browser-harness.js";
import { ONE_MODEL_PAGE_MS, TWO_MODEL_LOADS_MS } from "../../test-support/model-test-timeouts.js";

describe("createLocalAdapter in headless Chromium on wasm: real worker, transformers.js, page tools, cache, offline", () => {
  const state = setUp(false);

  it("downloads with progress, loads, and runs the scripted two-step tool loop against add_to_cart", () => downloadAndBuySocks(state, "wasm"), ONE_MODEL_PAGE_MS);

  it("a second page load reads the model from the cache with no model request and no download card, and answers with the network cut", async () => {
    // A new page: a new adapter and a new worker, the model only in the Cache API.
    // The network is cut for model files and every other origin before the page
    // loads; only the site's own page and scripts (the dev server) still answer,
    // as a service worker or the HTTP cache serves them on a real site. Once the
    // model is loaded the whole network goes (context.setOffline).
    state.modelRequests.length = 0;
    const blocked: string[] = [];
    const origin = new URL(state.server.url).origin;
    await state.context.route("**/*", (route) => {
      const url = route.request().url();
      if (isModelFile(url) || new URL(url).origin !== origin) {
        blocked.push(url);
        return route.abort("internetdisconnected");
      }
      return route.fallback();
    });
    try {
      const again = await open(state.context, state.server.url);
      await again.evaluate(() => harness.start({ model: "test-scripted", baseUrl: "/models/test" }));
      await waitFor(again, () => harness.status(), (status) => status.state === "ready", "the cached model to load");
      step("loaded from cache, model files cut");
      const statuses = await again.evaluate(() => harness.statuses());
      const states = statuses.map((status) => status.state);
      expect(states.filter((s, i, all) => s !== all[i - 1])).toEqual(["loading", "ready"]);
      // Read to the end of its files (90%), then said to be starting: no number left sitting still.
      const loads = statuses.filter((status): status is { state: "loading"; progress: number; stage?: "starting" } => status.state === "loading" && status.progress !== undefined);
      expect(loads.find((status) => status.stage === "starting"), JSON.stringify(statuses)).toEqual({ state: "loading", progress: 0.9, stage: "starting" });
      expect(loads.at(-1)?.stage).toBe("starting");
      expect(loads.every((status, index) => index === 0 || status.progress >= loads[index - 1]!.progress)).toBe(true);
      expect(await again.evaluate(() => harness.models().find((model) => model.id === "test-scripted"))).toMatchObject({ cached: true, selected: true });
      await state.context.setOffline(true);
      await buySocks(again, 0);
      step("answered offline");
      expect(blocked).toEqual([]);
      expect(state.modelRequests).toEqual([]);
      await again.close();
    } finally {
      await state.context.setOffline(false);
      await state.context.unrouteAll();
    }
  }, ONE_MODEL_PAGE_MS);

  it("a model pinned to a commit downloads from resolve/<commit>/ only, and loads from the cache with the network off (transformers.js's own tokenizer lookup would ask resolve/main)", async () => {
    const revision = "0123456789abcdef0123456789abcdef01234567";
    const page = await open(state.context, state.server.url);
    state.modelRequests.length = 0;
    await page.evaluate((revision) => harness.start({ model: "test-scripted", baseUrl: "/models/test", revision }), revision);
    await waitFor(page, () => harness.status(), (status) => status.state === "needs-download", "the probe");
    await page.evaluate(() => harness.prepare());
    expect(state.modelRequests.length).toBeGreaterThan(0);
    expect(state.modelRequests.filter((url) => !url.includes(`/scripted/resolve/${revision}/`))).toEqual([]);
    expect((await page.evaluate(() => harness.cachedFiles("scripted"))).filter((url) => url.includes(`/resolve/${revision}/`)).length).toBe(state.modelRequests.length);
    await page.close();

    // A new page and worker with every model request cut: everything comes from the cache under the pinned URLs.
    state.modelRequests.length = 0;
    await state.context.route("**/*", (route) => (isModelFile(route.request().url()) ? route.abort("internetdisconnected") : route.fallback()));
    try {
      const again = await open(state.context, state.server.url);
      await again.evaluate((revision) => harness.start({ model: "test-scripted", baseUrl: "/models/test", revision }), revision);
      await waitFor(again, () => harness.status(), (status) => status.state === "ready", "the pinned model to load from the cache");
      await state.context.setOffline(true);
      await buySocks(again, 0);
      expect(state.modelRequests).toEqual([]);
      await again.evaluate(() => harness.deleteModel("test-scripted"));
      await again.close();
    } finally {
      await state.context.setOffline(false);
      await state.context.unrouteAll();
    }
  }, TWO_MODEL_LOADS_MS);
});
