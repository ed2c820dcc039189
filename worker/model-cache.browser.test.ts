import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_SCRIPTED_ANSWER, DEFAULT_SCRIPTED_TOOL_CALL, ensureTestModel, scriptedModel, tinyModel, type EnsuredTestModel } from "../models/test-models/index.js";
import { launchChromium } from "../runtime/test-support/launch-chromium.js";
import { modelFilesPlugin as modelFiles } from "../runtime/test-support/model-files-plugin.js";
import { serveFixture } from "../runtime/test-support/serve-fixture.js";
import type { ModelSource } from "./protocol.js";
import { BUY_SOCKS, scriptedCallDone } from "./test-fixtures/scripted-conversation.js";
import { PAGE_READY_MS } from "../runtime/test-support/page-ready.js";

const fixture = fileURLToPath(new URL("./test-fixtures/cache-page/", import.meta.url));

const sourceFor = (model: EnsuredTestModel, base = "/models"): ModelSource => ({
  key: `${model.manifest.id}/wasm-fp32`,
  engine: "transformers",
  device: "wasm",
  dtype: "fp32",
  repo: `test/${model.manifest.id}`,
  baseUrl: base,
  files: model.manifest.files.map(({ path, bytes, sha256 }) => ({ path, bytes, sha256 })),
});

describe("downloads and the model cache, through the real module worker in headless Chromium", () => {
  let browser: Browser;
  let context: BrowserContext;
  let server: Awaited<ReturnType<typeof serveFixture>>;
  let scripted: EnsuredTestModel;
  let tiny: EnsuredTestModel;
  const modelRequests: string[] = [];

  beforeAll(async () => {
    [scripted, tiny] = await Promise.all([ensureTestModel(scriptedModel()), ensureTestModel(tinyModel())]);
    const root = join(scripted.folder, "..");
    [browser, server] = await Promise.all([launchChromium(), serveFixture(fixture, [modelFiles(root)])]);
    context = await browser.newContext();
    context.on("request", (request) => {
      if (/\/resolve\/[^/]+\//.test(request.url())) modelRequests.push(request.url());
    });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const open = async (): Promise<Page> => {
    const page = await context.newPage();
    page.on("console", (message) => message.type() === "error" && console.error("[page]", message.text()));
    await page.goto(server.url);
    await page.waitForSelector("body[data-ready=true]", { state: "attached", timeout: PAGE_READY_MS });
    return page;
  };

  it("downloads with byte progress and one GET per file, writes the manifest last, and a reload reads the cache with no model request", async () => {
    const model = sourceFor(scripted);
    const page = await open();
    expect(await page.evaluate((m) => (window as any).harness.client.cacheStatus(m), model)).toEqual({ cached: false });

    const progress = await page.evaluate(async (m) => {
      const seen: { loadedBytes: number; totalBytes: number }[] = [];
      await (window as any).harness.client.download("d1", m, (p: { loadedBytes: number; totalBytes: number }) => seen.push(p));
      return seen;
    }, model);
    expect(modelRequests, modelRequests.join("\n")).toHaveLength(model.files.length);
    expect(progress.at(-1)).toMatchObject({ loadedBytes: scripted.manifest.totalBytes, totalBytes: scripted.manifest.totalBytes });
    expect(progress.every((p, i) => i === 0 || p.loadedBytes >= progress[i - 1]!.loadedBytes)).toBe(true);
    expect(await page.evaluate((m) => (window as any).harness.client.cacheStatus(m), model)).toEqual({ cached: true, bytes: scripted.manifest.totalBytes });
    await page.close();

    // A new page and a new worker: cached status, load and a two-step tool loop, all from the Cache API.
    modelRequests.length = 0;
    const again = await open();
    expect(await again.evaluate((m) => (window as any).harness.client.cacheStatus(m), model)).toEqual({ cached: true, bytes: scripted.manifest.totalBytes });
    await again.evaluate((m) => (window as any).harness.client.load(m, () => {}), model);
    const base = { model, conversationId: "c", tools: [{ name: "add_to_cart", description: "Adds to cart.", inputSchema: { type: "object" } }], temperature: 0 };
    const first = await again.evaluate((request) => (window as any).harness.generate(request), { ...base, id: "g1", conversation: [BUY_SOCKS] });
    expect(first.calls).toEqual([{ name: DEFAULT_SCRIPTED_TOOL_CALL.name, input: DEFAULT_SCRIPTED_TOOL_CALL.arguments }]);
    const second = await again.evaluate((request) => (window as any).harness.generate(request), {
      ...base,
      id: "g2",
      conversation: [BUY_SOCKS, scriptedCallDone()],
    });
    expect(second.text).toBe(DEFAULT_SCRIPTED_ANSWER);
    expect(modelRequests).toEqual([]);

    await again.evaluate((m) => (window as any).harness.client.deleteModel(m), model);
    expect(await again.evaluate((m) => (window as any).harness.client.cacheStatus(m), model)).toEqual({ cached: false });
    expect(await again.evaluate(async (m) => (await (await caches.open("web-agents-models-v1")).keys()).filter((r) => r.url.includes(m.repo)).length, model)).toBe(0);
    await again.close();
  }, 120_000);

  it("a copy saved before the catalog pinned another commit is outdated: not cached, and its download copies every file whose pinned sha256 it holds, fetches the rest, then drops the old copy", async () => {
    const saved = sourceFor(scripted);
    const page = await open();
    await page.evaluate((m) => (window as any).harness.client.download("old", m, () => {}), saved);
    // The next release pins a commit; config.json is listed without a hash, so it is never assumed unchanged.
    const pinned: ModelSource = {
      ...saved,
      revision: "89abcdef0123456789abcdef0123456789abcdef",
      files: saved.files.map((file) => (file.path === "config.json" ? { path: file.path, bytes: file.bytes! } : file)),
    };
    expect(await page.evaluate((m) => (window as any).harness.client.cacheStatus(m), pinned)).toEqual({ cached: false, outdated: true });
    // Loading it says why, in a sentence, rather than failing inside the engine.
    const error = await page.evaluate((m) => (window as any).harness.client.load(m, () => {}).then(() => "loaded", (caught: Error) => caught.message), pinned);
    expect(error).toBe(`scripted was updated since it was saved on this device. Download it again: the files that did not change are reused.`);

    modelRequests.length = 0;
    await page.evaluate((m) => (window as any).harness.client.download("new", m, () => {}), pinned);
    expect(modelRequests).toEqual([expect.stringMatching(new RegExp(`/resolve/${pinned.revision}/config\\.json$`))]);
    expect(await page.evaluate((m) => (window as any).harness.client.cacheStatus(m), pinned)).toEqual({ cached: true, bytes: scripted.manifest.totalBytes });
    const urls: string[] = await page.evaluate(async () => (await (await caches.open("web-agents-models-v1")).keys()).map((request) => request.url));
    expect(urls.filter((url) => url.includes(`/${saved.repo}/resolve/main/`))).toEqual([]);
    expect(urls.filter((url) => url.includes(`/${saved.repo}/resolve/${pinned.revision}/`))).toHaveLength(saved.files.length);
    const answer = await page.evaluate(
      (request) => (window as any).harness.client.load(request.model, () => {}).then(() => (window as any).harness.generate(request)),
      { id: "g", model: pinned, conversationId: "pinned", conversation: [BUY_SOCKS], tools: [{ name: "add_to_cart", description: "Adds to cart.", inputSchema: { type: "object" } }], temperature: 0 },
    );
    expect(answer.calls).toEqual([{ name: DEFAULT_SCRIPTED_TOOL_CALL.name, input: DEFAULT_SCRIPTED_TOOL_CALL.arguments }]);
    await page.evaluate((m) => (window as any).harness.client.deleteModel(m), pinned);
    await page.close();
  }, 60_000);

  it("a cancelled download leaves no manifest and no files", async () => {
    const model = sourceFor(tiny, "/slow-models");
    const page = await open();
    const outcome = await page.evaluate(async (m) => {
      const { client } = (window as any).harness;
      let cancelled = false;
      const error = await client
        .download("slow", m, (p: { loadedBytes: number }) => {
          if (!cancelled && p.loadedBytes > 256 * 1024) {
            cancelled = true;
            void client.cancel("slow");
          }
        })
        .then(() => undefined, (caught: { code: string }) => caught.code);
      const keys = (await (await caches.open("web-agents-models-v1")).keys()).filter((r) => r.url.includes(m.repo));
      return { error, status: await client.cacheStatus(m), keys: keys.length };
    }, model);
    expect(outcome).toEqual({ error: "aborted", status: { cached: false }, keys: 0 });
    await page.close();
  }, 60_000);

  it("a file that does not match its sha256 fails integrity_failed and leaves no manifest and no files", async () => {
    const good = sourceFor(tiny);
    // The last file's pinned hash is wrong: the files before it were already stored, and must go too.
    const files = good.files.map((file, index) => (index === good.files.length - 1 ? { ...file, sha256: "0".repeat(64) } : file));
    const model = { ...good, key: "tiny/corrupt", files };
    const page = await open();
    const outcome = await page.evaluate(async (m) => {
      const { client } = (window as any).harness;
      const error = await client.download("bad", m, () => {}).then(
        () => undefined,
        (caught: { code: string; reason: string; message: string; file: string }) => ({ code: caught.code, reason: caught.reason, message: caught.message, file: caught.file }),
      );
      const keys = (await (await caches.open("web-agents-models-v1")).keys()).filter((r) => r.url.includes(m.repo));
      return { error, status: await client.cacheStatus(m), keys: keys.length };
    }, model);
    const last = files.at(-1)!.path;
    expect(outcome).toEqual({
      error: { code: "integrity_failed", reason: "hash_mismatch", message: `${last} of ${tiny.manifest.id} arrived corrupted (it does not match its sha256), so nothing was kept. Try again.`, file: last },
      status: { cached: false },
      keys: 0,
    });
    await page.close();
  }, 60_000);

  it("rejects a download bigger than the free space as quota_exceeded before fetching", async () => {
    const model = { ...sourceFor(tiny), key: "huge", files: [{ path: "onnx/model.onnx", bytes: 10 ** 15 }] };
    modelRequests.length = 0;
    const page = await open();
    const error = await page.evaluate((m) => (window as any).harness.client.download("q", m, () => {}).catch((caught: unknown) => ({ ...(caught as object), message: (caught as Error).message })), model);
    expect(error).toMatchObject({ code: "quota_exceeded", neededBytes: 10 ** 15 });
    expect(error.freeBytes).toBeGreaterThan(0);
    expect(error.message).toMatch(/needs 1,000,000 GB and .* free/);
    expect(modelRequests).toEqual([]);
    await page.close();
  }, 60_000);
});
