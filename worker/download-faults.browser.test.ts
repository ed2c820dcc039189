import { createServer } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DEFAULT_SCRIPTED_ANSWER, DEFAULT_SCRIPTED_TOOL_CALL, ensureTestModel, scriptedModel, type EnsuredTestModel } from "../models/test-models/index.js";
import { faultyModelFiles, type FaultPlan, type FaultyModelFiles } from "../runtime/test-support/faulty-model-files-plugin.js";
import { launchChromium } from "../runtime/test-support/launch-chromium.js";
import { serveFixture } from "../runtime/test-support/serve-fixture.js";
import { CHUNK_BYTES } from "./download-file.js";
import type { EngineErrorData, ModelSource } from "./protocol.js";
import { PAGE_READY_MS } from "../runtime/test-support/page-ready.js";
import { BUY_SOCKS, scriptedCallDone } from "./test-fixtures/scripted-conversation.js";
import { TWO_MODEL_LOADS_MS } from "../runtime/test-support/model-test-timeouts.js";

const fixture = fileURLToPath(new URL("./test-fixtures/cache-page/", import.meta.url));
const CACHE = "web-agents-models-v1";

type Outcome = { ok: true } | { ok: false; error: EngineErrorData };

/** The model these faults download: the repo's last part names it in every sentence. */
const NAME = "scripted-whole-tokenizer";

describe("downloads that never lie: a faulty server, the real worker, Cache API and transformers.js in headless Chromium", () => {
  let browser: Browser;
  let context: BrowserContext;
  let server: Awaited<ReturnType<typeof serveFixture>>;
  let scripted: EnsuredTestModel;
  let files: FaultyModelFiles;
  let host: string;
  /** The scripted model from the faulty server, every file pinned by its size and sha256. */
  let model: ModelSource;

  beforeAll(async () => {
    // Qwen3's whole tokenizer (10.6 MB): the faults below cut and flip it past its first 8 MB piece.
    scripted = await ensureTestModel(scriptedModel({ id: NAME, wholeTokenizer: true }));
    files = faultyModelFiles(join(scripted.folder, ".."));
    [browser, server] = await Promise.all([launchChromium(), serveFixture(fixture, [files.plugin])]);
    host = new URL(server.url).host;
    context = await browser.newContext();
    model = {
      key: "scripted/faults",
      engine: "transformers",
      device: "wasm",
      dtype: "fp32",
      repo: `test/${scripted.manifest.id}`,
      baseUrl: "/faulty",
      files: scripted.manifest.files.map(({ path, bytes, sha256 }) => ({ path, bytes, sha256 })),
    };
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });
  beforeEach(() => {
    files.plan = { fault: "good" };
    files.requests.length = 0;
  });

  /** A new page, so a new worker: nothing loaded in memory, only what the cache holds. */
  const open = async (): Promise<Page> => {
    const page = await context.newPage();
    page.on("pageerror", (error) => console.error("[page]", error.message));
    await page.goto(server.url);
    await page.waitForSelector("body[data-ready=true]", { state: "attached", timeout: PAGE_READY_MS });
    return page;
  };
  const download = (page: Page, source: ModelSource = model): Promise<Outcome> =>
    page.evaluate(
      (m) =>
        (window as any).harness.client.download(crypto.randomUUID(), m, () => {}).then(
          () => ({ ok: true }),
          (error: EngineErrorData) => ({ ok: false, error: { ...error, message: error.message } }),
        ),
      source,
    );
  const load = (page: Page): Promise<Outcome> =>
    page.evaluate(
      (m) =>
        (window as any).harness.client.load(m, () => {}).then(
          () => ({ ok: true }),
          (error: EngineErrorData) => ({ ok: false, error: { ...error, message: error.message } }),
        ),
      model,
    );
  const status = (page: Page) => page.evaluate((m) => (window as any).harness.client.cacheStatus(m), model);
  /** The model's entries in the Cache API, as paths (`tokenizer.json?web-agents-chunk=0` for a piece). */
  const cached = (page: Page): Promise<string[]> =>
    page.evaluate(
      async ({ name, repo }) =>
        (await (await caches.open(name)).keys()).map((request) => request.url).filter((url) => url.includes(`/${repo}/resolve/main/`)).map((url) => url.split("/resolve/main/")[1]!).sort(),
      { name: CACHE, repo: model.repo },
    );
  const whole = (entries: string[]) => entries.filter((entry) => !entry.includes("?"));
  /** The bytes held in a file's pieces (`<path>?web-agents-chunk=<n>` entries). */
  const pieceBytes = (page: Page, path: string): Promise<number> =>
    page.evaluate(
      async ({ name, repo, path }) => {
        const cache = await caches.open(name);
        let total = 0;
        for (const request of await cache.keys()) {
          if (!request.url.includes(`/${repo}/resolve/main/${path}?`)) continue;
          total += (await (await cache.match(request))!.arrayBuffer()).byteLength;
        }
        return total;
      },
      { name: CACHE, repo: model.repo, path },
    );

  /** The sha256 (hex) of each cached file of the model, by path, read back from the Cache API. */
  const cachedHashes = (page: Page): Promise<Record<string, string>> =>
    page.evaluate(
      async ({ name, repo }) => {
        const cache = await caches.open(name);
        const hashes: Record<string, string> = {};
        for (const request of await cache.keys()) {
          if (!request.url.includes(`/${repo}/resolve/main/`)) continue;
          const digest = await crypto.subtle.digest("SHA-256", await (await cache.match(request))!.arrayBuffer());
          hashes[request.url.split("/resolve/main/")[1]!] = [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
        }
        return hashes;
      },
      { name: CACHE, repo: model.repo },
    );

  /**
   * With a good server, after a fault: the download completes and the cache
   * holds exactly the model's files, each byte for byte (its sha256 read back
   * from the Cache API). The model loads and answers from such a cache
   * (`answersFromTheCache`, tested once below): a load reads only the cache.
   */
  async function downloadsAgainExactly(page: Page): Promise<void> {
    files.plan = { fault: "good" };
    expect(await download(page)).toEqual({ ok: true });
    expect(await cached(page)).toEqual(model.files.map((file) => file.path).sort());
    expect(await status(page)).toEqual({ cached: true, bytes: scripted.manifest.totalBytes });
    expect(await cachedHashes(page)).toEqual(Object.fromEntries(model.files.map((file) => [file.path, file.sha256])));
    await page.evaluate((m) => (window as any).harness.client.deleteModel(m), model);
    expect(await cached(page)).toEqual([]);
    await page.close();
  }

  /** A new page (a new worker) loads the model from the cache and answers the scripted two-step tool loop. */
  async function answersFromTheCache(): Promise<void> {
    const answerer = await open();
    expect(await load(answerer)).toEqual({ ok: true });
    const base = { model, conversationId: "c", tools: [{ name: "add_to_cart", description: "Adds to cart.", inputSchema: { type: "object" } }], temperature: 0 };
    const first = await answerer.evaluate((request) => (window as any).harness.generate(request), { ...base, id: "g1", conversation: [BUY_SOCKS] });
    expect(first.calls).toEqual([{ name: DEFAULT_SCRIPTED_TOOL_CALL.name, input: DEFAULT_SCRIPTED_TOOL_CALL.arguments }]);
    const second = await answerer.evaluate((request) => (window as any).harness.generate(request), {
      ...base,
      id: "g2",
      conversation: [BUY_SOCKS, scriptedCallDone()],
    });
    expect(second.text).toBe(DEFAULT_SCRIPTED_ANSWER);
    await answerer.evaluate((m) => (window as any).harness.client.deleteModel(m), model);
    expect(await cached(answerer)).toEqual([]);
    await answerer.close();
  }

  it("a good server: the download is exact, and a new worker loads the model from the cache and answers", async () => {
    const page = await open();
    expect(await download(page)).toEqual({ ok: true });
    expect(await cachedHashes(page)).toEqual(Object.fromEntries(model.files.map((file) => [file.path, file.sha256])));
    await page.close();
    await answersFromTheCache();
  }, TWO_MODEL_LOADS_MS);

  const rejected: { name: string; plan: FaultPlan; error: Partial<EngineErrorData> }[] = [
    {
      name: "a web page (text/html, 200) instead of config.json",
      plan: { fault: "html", files: "config.json" },
      error: { code: "download_failed", reason: "not_a_model_file", file: "config.json" },
    },
    {
      name: "the model cut short, with a content-length that says so",
      plan: { fault: "short", files: "onnx/model.onnx" },
      error: { code: "integrity_failed", reason: "size_mismatch", file: "onnx/model.onnx" },
    },
    {
      name: "the tokenizer cut short, sent chunked with no content-length",
      plan: { fault: "truncated-chunked", files: "tokenizer.json", at: 0.9 },
      error: { code: "integrity_failed", reason: "size_mismatch", file: "tokenizer.json" },
    },
    {
      name: "the model with one bit flipped",
      plan: { fault: "bit-flip", files: "onnx/model.onnx" },
      error: { code: "integrity_failed", reason: "hash_mismatch", file: "onnx/model.onnx" },
    },
    {
      // 11 MB: two pieces in the cache and the tail in memory, hashed as one file.
      name: "the tokenizer with one bit flipped past its first piece",
      plan: { fault: "bit-flip", files: "tokenizer.json", at: CHUNK_BYTES + 1000 },
      error: { code: "integrity_failed", reason: "hash_mismatch", file: "tokenizer.json" },
    },
  ];

  for (const { name, plan, error } of rejected) {
    it(`${name}: rejected before the cache keeps it, nothing kept, then a good server downloads it exactly`, async () => {
      files.plan = plan;
      const page = await open();
      const outcome = await download(page);
      expect(outcome).toMatchObject({ ok: false, error: { ...error, host } });
      const message = (outcome as { error: EngineErrorData }).error.message;
      expect(message).not.toMatch(/failed to fetch|network error|protobuf|undefined/i);
      expect(message).toMatch(/Try again|cloud model/);
      expect(await cached(page)).toEqual([]);
      expect(await status(page)).toEqual({ cached: false });
      await downloadsAgainExactly(page);
    }, 60_000);
  }

  it("says the server cannot be reached, in a sentence, when the fetch itself fails", async () => {
    // A port that was free a moment ago: nothing answers there.
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, "127.0.0.1", () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
    });
    const page = await open();
    const outcome = await download(page, { ...model, key: "scripted/unreachable", baseUrl: `http://127.0.0.1:${port}` });
    expect(outcome).toMatchObject({ ok: false, error: { code: "download_failed", reason: "unreachable", host: `127.0.0.1:${port}`, detail: "Failed to fetch" } });
    expect((outcome as { error: EngineErrorData }).error.message).toBe(`Could not reach 127.0.0.1:${port} to download ${NAME}. Check your connection and try again.`);
    await downloadsAgainExactly(page);
  }, 60_000);

  for (const ranges of [true, false]) {
    it(`a connection dropped in the tokenizer keeps the verified files and the pieces, and the retry ${ranges ? "resumes with a Range request (206)" : "refetches only that file when the server ignores Range (200)"}`, async () => {
      const cut = CHUNK_BYTES + 2_000_000;
      const page = await open();
      // A clean start even when an earlier test stopped before removing its model.
      await page.evaluate((m) => (window as any).harness.client.deleteModel(m), model);
      files.plan = { fault: "drop", files: "tokenizer.json", at: cut };
      const outcome = await download(page);
      expect(outcome).toMatchObject({ ok: false, error: { code: "download_failed", reason: "connection_dropped", file: "tokenizer.json", host } });
      expect((outcome as { error: EngineErrorData }).error.message).toBe(`The connection to ${host} dropped while downloading ${NAME}. Try again: the download resumes where it stopped.`);
      const kept = await cached(page);
      // The files before it are whole; the tokenizer is only pieces, never an entry under its URL; no manifest.
      expect(whole(kept)).toEqual(["config.json", "generation_config.json"]);
      expect(kept.filter((entry) => entry.startsWith("tokenizer.json?")).length).toBeGreaterThanOrEqual(1);
      expect(await status(page)).toEqual({ cached: false });
      const keptBytes = await pieceBytes(page, "tokenizer.json");

      files.requests.length = 0;
      files.plan = { fault: "good", ranges };
      const retry = await download(page);
      expect(retry).toEqual({ ok: true });
      const asked = files.requests.map(({ file, range, status }) => ({ file, range, status }));
      const resumedAt = Number(/^bytes=(\d+)-$/.exec(asked[0]?.range ?? "")?.[1]);
      // Every byte that reached the page before the drop was kept, and the retry asks for exactly the rest. (How many
      // reach it is the browser's business: Chromium can end the stream with the error before the last megabytes the
      // server wrote are read, so a fixed lower bound such as a whole piece is not guaranteed on a loaded machine.)
      expect(resumedAt).toBe(keptBytes);
      expect(resumedAt).toBeGreaterThan(0);
      expect(resumedAt).toBeLessThanOrEqual(cut);
      expect(asked).toEqual([
        { file: "tokenizer.json", range: `bytes=${resumedAt}-`, status: ranges ? 206 : 200 },
        { file: "tokenizer_config.json", range: undefined, status: 200 },
        { file: "onnx/model.onnx", range: undefined, status: 200 },
      ]);
      // The pieces went into the whole file, byte for byte, and are gone.
      expect(await cached(page)).toEqual(model.files.map((file) => file.path).sort());
      expect(await cachedHashes(page)).toEqual(Object.fromEntries(model.files.map((file) => [file.path, file.sha256])));
      await page.evaluate((m) => (window as any).harness.client.deleteModel(m), model);
      await downloadsAgainExactly(page);
    }, 60_000);
  }

  it("a manifest whose files the browser evicted reads as not cached, is removed with what is left, and the model downloads again", async () => {
    const page = await open();
    expect(await download(page)).toEqual({ ok: true });
    await page.evaluate(async ({ name, url }) => (await caches.open(name)).delete(url), { name: CACHE, url: `${server.url.replace(/\/$/, "")}/faulty/${model.repo}/resolve/main/tokenizer_config.json` });
    expect(await status(page)).toEqual({ cached: false, removed: "evicted" });
    expect(await cached(page)).toEqual([]);

    // The same on a load, without asking the status first: never transformers.js reading a missing file.
    expect(await download(page)).toEqual({ ok: true });
    await page.evaluate(async ({ name, url }) => (await caches.open(name)).delete(url), { name: CACHE, url: `${server.url.replace(/\/$/, "")}/faulty/${model.repo}/resolve/main/config.json` });
    const loader = await open();
    expect(await load(loader)).toMatchObject({
      ok: false,
      error: { code: "not_cached", reason: "evicted", message: `The browser deleted part of the saved copy of ${NAME} to free space, so the rest was removed too. Download it again.` },
    });
    expect(await cached(loader)).toEqual([]);
    expect(await status(loader)).toEqual({ cached: false });
    await loader.close();
    await downloadsAgainExactly(page);
  }, 60_000);

  it("a cached model that fails to load (ONNX Runtime cannot parse it) is removed, and downloads again exactly", async () => {
    const page = await open();
    expect(await download(page)).toEqual({ ok: true });
    // The copy on disk goes bad after it was verified: garbage under the model's URL.
    await page.evaluate(
      async ({ name, url }) => (await caches.open(name)).put(url, new Response(new Uint8Array(7891).fill(0x5a), { headers: { "content-type": "application/octet-stream" } })),
      { name: CACHE, url: `${server.url.replace(/\/$/, "")}/faulty/${model.repo}/resolve/main/onnx/model.onnx` },
    );
    const loader = await open();
    const outcome = await load(loader);
    expect(outcome).toMatchObject({ ok: false, error: { code: "not_cached", reason: "damaged", message: `The saved copy of ${NAME} was damaged and has been removed. Download it again.` } });
    expect((outcome as { error: EngineErrorData }).error.detail).toMatch(/protobuf|ERROR_CODE/i);
    expect(await status(loader)).toEqual({ cached: false });
    expect(await cached(loader)).toEqual([]);
    await loader.close();
    await downloadsAgainExactly(page);
  }, 60_000);
});
