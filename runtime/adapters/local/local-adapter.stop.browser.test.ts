import { expect, it, describe } from "vitest";
import { idle, open, setUp, step, waitFor } from "./test-fixtures/browser-harness.js";
import { modelDownloadsSettled } from "../../test-support/nothing-happened.js";
import { ONE_MODEL_PAGE_MS } from "../../test-support/model-test-timeouts.js";

describe("createLocalAdapter in headless Chromium on wasm: a cancelled download, Stop, delete", () => {
  const state = setUp(false);

  it("an aborted download leaves the model needs-download with no manifest and no files", async () => {
    const page = await open(state.context, state.server.url);
    await page.evaluate(() => harness.start({ model: "test-tiny", baseUrl: "/slow-models/test" }));
    await waitFor(page, () => harness.status(), (status) => status.state === "needs-download", "the download card");
    const outcome = await page.evaluate(() => harness.prepareAndAbort(0.1));
    expect(outcome).toBe("AbortError");
    // The engine cleans up after its fetch rejects, holding the model's lock: once it lets go, look.
    await modelDownloadsSettled(page);
    expect(await page.evaluate(() => harness.status())).toMatchObject({ state: "needs-download" });
    expect(await page.evaluate(() => harness.models().find((model) => model.id === "test-tiny"))).toMatchObject({ cached: false });
    expect((await page.evaluate(() => harness.manifestKeys())).filter((key) => key.startsWith("test-tiny/"))).toEqual([]);
    expect(await page.evaluate(() => harness.cachedFiles("tiny"))).toEqual([]);
    const progress = (await page.evaluate(() => harness.statuses())).flatMap((status) => (status.state === "downloading" ? [status.progress] : []));
    expect(progress.at(-1)).toBeLessThan(0.5);

    // A fresh adapter (and worker) on the same page agrees: still needs a download.
    await page.evaluate(() => harness.start({ model: "test-tiny", baseUrl: "/slow-models/test" }));
    await waitFor(page, () => harness.status(), (status) => status.state !== "loading", "the probe");
    expect(await page.evaluate(() => harness.status())).toMatchObject({ state: "needs-download" });
    await page.close();
  }, 60_000);

  it("Stop mid-generation on the tiny model ends the run aborted within 500 ms, and the worker is free at once; deleteModel then removes the model", async () => {
    const page = await open(state.context, state.server.url);
    await page.evaluate(() => harness.start({ model: "test-tiny", baseUrl: "/models/test", maxNewTokens: 20_000 }));
    await page.evaluate(() => harness.prepare());
    await page.evaluate(() => harness.send("Tell me a long story"));
    await waitFor(
      page,
      () => harness.snapshot(),
      (snapshot) => snapshot.messages.at(-1)?.role === "assistant" && JSON.stringify(snapshot.messages.at(-1)!.parts).length > 400,
      "the tiny model to be generating",
    );
    step("generating; stop");
    await page.evaluate(() => harness.stop());
    await idle(page);
    await waitFor(page, () => harness.timings(), (timings) => timings.runEndedAt.length > 0, "the adapter's run to end");
    const timings = await page.evaluate(() => harness.timings());
    const parts = await page.evaluate(() => harness.parts());
    // The session reads one part after Stop and lets go of the run. That part is the run's finish, or, when the
    // random-weight model had written a call to the page's add_to_cart (still open: calls run after the step), that call's cancellation first.
    const before = parts.slice(0, parts.length - timings.afterStop.length);
    const openCalls = before.flatMap((part) => (part.type === "tool-call" && !before.some((end) => (end.type === "tool-result" || end.type === "tool-error") && end.id === part.id) ? [part.id] : []));
    expect(timings.afterStop.map(({ part }) => part)).toEqual([openCalls.length > 0 ? expect.objectContaining({ type: "tool-error", id: openCalls[0], code: "cancelled" }) : { type: "finish", reason: "aborted" }]);
    const sessionMs = timings.leftStreamingAt! - timings.stopAt!;
    const finishMs = timings.afterStop[0]!.at - timings.stopAt!;
    const runEndMs = timings.runEndedAt[0]! - timings.stopAt!;
    expect(sessionMs).toBeLessThan(500);
    expect(finishMs).toBeLessThan(500);
    expect(runEndMs).toBeLessThan(500);

    // The engine stopped too: a new message gets its first token promptly
    // (generations queue in the worker, so a runaway one would hold it up).
    const sent = await page.evaluate(() => ({ at: performance.now(), parts: harness.parts().length }));
    await page.evaluate(() => harness.send("Again"));
    const firstToken = await waitFor(
      page,
      () => ({ at: performance.now(), types: harness.parts().map((part) => part.type) }),
      (value) => value.types.slice(sent.parts).includes("text-delta"),
      "the next run's first token",
      10_000,
    );
    const nextFirstTokenMs = firstToken.at - sent.at;
    console.info(`Stop latency: session ${sessionMs.toFixed(1)} ms, first part after Stop ${finishMs.toFixed(1)} ms (${timings.afterStop[0]!.part.type}; calls open: ${openCalls.length}), run end ${runEndMs.toFixed(1)} ms; next run's first token ${nextFirstTokenMs.toFixed(0)} ms`);
    expect(nextFirstTokenMs).toBeLessThan(3_000);
    await page.evaluate(() => harness.stop());
    await idle(page);

    // Delete: files and manifest gone, back to needs-download.
    expect(await page.evaluate(() => harness.cachedFiles("tiny"))).toHaveLength(5);
    await page.evaluate(() => harness.deleteModel("test-tiny"));
    expect(await page.evaluate(() => harness.status())).toMatchObject({ state: "needs-download" });
    expect(await page.evaluate(() => harness.models().find((model) => model.id === "test-tiny"))).toMatchObject({ cached: false, selected: true });
    expect(await page.evaluate(() => harness.cachedFiles("tiny"))).toEqual([]);
    expect((await page.evaluate(() => harness.manifestKeys())).filter((key) => key.startsWith("test-tiny/"))).toEqual([]);
    await page.close();
  }, ONE_MODEL_PAGE_MS);

});
