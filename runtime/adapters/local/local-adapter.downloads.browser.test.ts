import { join } from "node:path";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { CPU_FALLBACK_NOTE } from "../../../models/catalog.js";
import { ensureTestModel, scriptedModel } from "../../../models/test-models/index.js";
import { CHUNK_BYTES } from "../../../worker/download-file.js";
import { faultyModelFiles } from "../../test-support/faulty-model-files-plugin.js";
import { sharedWorkerTargets } from "../../test-support/shared-worker-targets.js";
import { buySocks, open, setUp, step, waitFor } from "./test-fixtures/browser-harness.js";
import { TWO_MODEL_LOADS_MS } from "../../test-support/model-test-timeouts.js";

const LABEL = "Test model: scripted tool call";
// test-scripted served from a build with Qwen3's whole tokenizer (10.6 MB): the first case drops it past its first 8 MB piece.
const scripted = await ensureTestModel(scriptedModel({ id: "scripted-whole-tokenizer", wholeTokenizer: true }));
const REPO = scripted.manifest.id;
const scriptedBuild = { repo: REPO, files: scripted.manifest.files.map(({ path, bytes }) => ({ path, bytes })) };
const files = faultyModelFiles(join(scripted.folder, ".."));

/** The adapter's prepare() on the page, resolving with how it ended instead of rejecting. */
const prepare = (page: Page): Promise<string> => page.evaluate(() => harness.prepare().then(() => "ready", (error: Error) => `rejected: ${error.message}`));
const start = async (page: Page, shared = false) => {
  await page.evaluate(([build, shared]) => harness.start({ model: "test-scripted", baseUrl: "/faulty/test", scriptedBuild: build, shared }), [scriptedBuild, shared] as const);
  return waitFor(page, () => harness.status(), (status) => status.state !== "loading", "the probe");
};
/** Deletes a file of the saved model from the Cache API, as the browser does under storage pressure. */
const evict = (page: Page, path: string) =>
  page.evaluate(async ({ repo, path }) => {
    const cache = await caches.open("web-agents-models-v1");
    const [request] = (await cache.keys()).filter((key) => key.url.endsWith(`/${repo}/resolve/main/${path}`));
    return cache.delete(request!);
  }, { repo: REPO, path });

describe("createLocalAdapter downloads that never lie: faults, healing and two tabs, on the real worker and transformers.js", () => {
  const state = setUp(false, [files.plugin]);
  const host = () => new URL(state.server.url).host;

  // In the origin's SharedWorker (the default on a page that is not cross-origin isolated): the
  // faults are the server's, since Playwright's routes do not see a SharedWorker's requests.
  it("a dropped connection in the shared worker shows a sentence with the next step; preparing again resumes with a Range request and answers", async () => {
    files.plan = { fault: "drop", files: "tokenizer.json", at: CHUNK_BYTES + 2_000_000 };
    files.requests.length = 0;
    const page = await open(state.context, state.server.url);
    expect(await start(page, true)).toMatchObject({ state: "needs-download", note: CPU_FALLBACK_NOTE });
    const message = `The connection to ${host()} dropped while downloading ${LABEL}. Try again: the download resumes where it stopped.`;
    expect(await prepare(page)).toBe(`rejected: ${message}`);
    expect(await page.evaluate(() => harness.status())).toEqual({ state: "error", error: message, code: "download_failed" });
    expect(await page.evaluate(() => harness.manifestKeys())).toEqual([]);
    expect((await sharedWorkerTargets(state.browser)).map((worker) => new URL(worker.url).host)).toEqual([host()]);
    step("dropped");

    files.plan = { fault: "good" };
    files.requests.length = 0;
    expect(await prepare(page)).toBe("ready");
    const asked = files.requests.map(({ file, range, status }) => ({ file, status, resumed: range !== undefined }));
    expect(asked).toEqual([
      { file: "tokenizer.json", status: 206, resumed: true },
      { file: "tokenizer_config.json", status: 200, resumed: false },
      { file: "onnx/model.onnx", status: 200, resumed: false },
    ]);
    await buySocks(page, 0);
    step("resumed and answered");
    await page.evaluate(() => harness.deleteModel("test-scripted"));
    await page.close();
  }, 90_000);

  it("a saved copy that cannot be loaded is removed: back to needs-download with a note that says so; the next download answers", async () => {
    // The test catalog's sizes are estimates (no sha256): a consistently short model file gets through
    // the download, and only the load can tell.
    files.plan = { fault: "short", files: "onnx/model.onnx" };
    const page = await open(state.context, state.server.url);
    await start(page);
    expect(await prepare(page)).toMatch(/^rejected: /);
    const note = `The saved copy of ${LABEL} was damaged and has been removed. Download it again.`;
    expect(await page.evaluate(() => harness.status())).toMatchObject({ state: "needs-download", note: `${note} ${CPU_FALLBACK_NOTE}` });
    expect(await page.evaluate(() => harness.models().find((model) => model.id === "test-scripted"))).toMatchObject({ cached: false });
    expect(await page.evaluate(() => harness.manifestKeys())).toEqual([]);
    expect(await page.evaluate((repo) => harness.cachedFiles(repo), REPO)).toEqual([]);
    // Sending now asks for the download, and never reads as cached.
    const states = (await page.evaluate(() => harness.statuses())).map((status) => status.state);
    expect(states.at(-1)).toBe("needs-download");
    step("healed");

    files.plan = { fault: "good" };
    // In the same tab: the engine's worker, which the failed load left unusable, has been replaced.
    expect(await prepare(page)).toBe("ready");
    expect(await page.evaluate(() => harness.status())).toEqual({ state: "ready" });
    await buySocks(page, 0);
    await page.close();
  }, 90_000);

  it("a saved copy the browser partly evicted reads as needs-download with a note on the next visit, never as cached; it downloads again and answers", async () => {
    // The model from the previous test is saved; the browser takes one of its files.
    const before = await open(state.context, state.server.url);
    expect(await evict(before, "tokenizer_config.json")).toBe(true);
    await before.close();

    const page = await open(state.context, state.server.url);
    const note = `The browser deleted part of the saved copy of ${LABEL} to free space, so the rest was removed too. Download it again.`;
    expect(await start(page)).toMatchObject({ state: "needs-download", note: `${note} ${CPU_FALLBACK_NOTE}` });
    expect(await page.evaluate(() => harness.manifestKeys())).toEqual([]);
    expect(await page.evaluate((repo) => harness.cachedFiles(repo), REPO)).toEqual([]);
    files.plan = { fault: "good" };
    expect(await prepare(page)).toBe("ready");
    // The note goes once the download starts.
    expect((await page.evaluate(() => harness.statuses())).filter((status) => status.state === "downloading").every((status) => !("note" in status))).toBe(true);
    await buySocks(page, 0);
    await page.evaluate(() => harness.deleteModel("test-scripted"));
    await page.close();
  }, 90_000);

  it("two tabs preparing the same model download it once (one GET per file), and both end ready and answer", async () => {
    files.plan = { fault: "good", trickleMs: 10 };
    files.requests.length = 0;
    const first = await open(state.context, state.server.url);
    const second = await open(state.context, state.server.url);
    await start(first);
    await start(second);
    const firstReady = prepare(first);
    await waitFor(first, () => harness.status(), (status) => status.state === "downloading" && status.progress > 0, "the first tab to download");
    const secondReady = prepare(second);
    expect(await Promise.all([firstReady, secondReady])).toEqual(["ready", "ready"]);
    step("two tabs ready");
    expect(files.counts()).toEqual(Object.fromEntries(scripted.manifest.files.map((file) => [file.path, 1])));
    // The second tab waited on the first: it showed the download (following the first's progress), then loaded.
    const states = (await second.evaluate(() => harness.statuses())).map((status) => status.state).filter((s, i, all) => s !== all[i - 1]);
    expect(states).toEqual(["loading", "needs-download", "downloading", "loading", "ready"]);
    await buySocks(second, 0);
    await buySocks(first, 0);
    await first.close();
    await second.close();
  }, TWO_MODEL_LOADS_MS);
});
