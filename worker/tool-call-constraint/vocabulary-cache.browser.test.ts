import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureTestModel, tinyModel } from "../../models/test-models/index.js";
import { launchChromium } from "../../runtime/test-support/launch-chromium.js";
import { modelFilesPlugin } from "../../runtime/test-support/model-files-plugin.js";
import { PAGE_READY_MS } from "../../runtime/test-support/page-ready.js";
import { serveFixture } from "../../runtime/test-support/serve-fixture.js";

// The vocabulary cache with Chromium's real IndexedDB, on the generated tiny model's
// tokenizer.json (Qwen3's own: 151,643 tokens and 26 added, the same file as
// qwen3-0.6b-shaped's), so the read and build times printed are the real model's.
const fixture = fileURLToPath(new URL("../test-fixtures/vocabulary-page/", import.meta.url));
const TOKENIZER = "/models/test/tiny/resolve/main/tokenizer.json";

interface ReadResult {
  from: "cache" | "built";
  stored: boolean;
  identical: boolean;
  readMs: number;
  fingerprintMs: number;
  buildMs: number;
  helloText: string;
}

declare global {
  // eslint-disable-next-line no-var
  var vocabularyTest: {
    load(url: string): Promise<number>;
    read(modelKey: string, change?: "none" | "rename" | "added"): Promise<ReadResult>;
    corrupt(modelKey: string): Promise<void>;
    failWrites(): void;
    createDatabaseWithoutStore(): Promise<void>;
  };
}

let browser: Browser;
let server: Awaited<ReturnType<typeof serveFixture>>;

beforeAll(async () => {
  const tiny = await ensureTestModel(tinyModel());
  [browser, server] = await Promise.all([launchChromium(), serveFixture(fixture, [modelFilesPlugin(dirname(tiny.folder))])]);
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** Runs `body` in a fresh browser context (its own IndexedDB), closed after, pass or fail. */
async function inContext(body: (context: BrowserContext) => Promise<void>): Promise<void> {
  const context = await browser.newContext();
  try {
    await body(context);
  } finally {
    await context.close();
  }
}

/** A page of `context` (its IndexedDB shared with the context's other pages), the tokenizer loaded, its warnings collected. */
async function open(context: BrowserContext, warnings: string[] = []): Promise<Page> {
  const page = await context.newPage();
  page.on("pageerror", (error) => console.error("[page]", error.message));
  page.on("console", (message) => message.type() === "warning" && warnings.push(message.text()));
  await page.goto(server.url);
  await page.waitForSelector("body[data-ready=true]", { state: "attached", timeout: PAGE_READY_MS });
  expect(await page.evaluate((url) => vocabularyTest.load(url), TOKENIZER)).toBe(151643);
  return page;
}

const read = (page: Page, modelKey: string, change: "none" | "rename" | "added" = "none") => page.evaluate(([key, how]) => vocabularyTest.read(key, how), [modelKey, change] as const);

describe("the constraint's vocabulary cache in Chromium's IndexedDB", () => {
  it("the first load builds and stores; a reloaded page reads the identical vocabulary back (times printed: figures, not a timed assertion)", async () => {
    await inContext(async (context) => {
      const first = await read(await open(context), "tiny/wasm-fp32");
      expect(first).toMatchObject({ from: "built", stored: true, identical: true });
      const warnings: string[] = [];
      const reloaded = await open(context, warnings);
      const reads: ReadResult[] = [];
      for (let round = 0; round < 3; round++) reads.push(await read(reloaded, "tiny/wasm-fp32"));
      for (const again of reads) expect(again).toMatchObject({ from: "cache", identical: true });
      expect(warnings).toEqual([]);
      const median = (values: number[]) => [...values].sort((a, b) => a - b)[1]!;
      const readMs = median(reads.map((r) => r.readMs));
      const buildMs = median(reads.map((r) => r.buildMs));
      const fingerprintMs = median(reads.map((r) => r.fingerprintMs));
      console.log(`vocabulary in Chromium (Qwen3, 151,669 tokens): built ${buildMs.toFixed(0)} ms; from IndexedDB ${readMs.toFixed(0)} ms read + ${fingerprintMs.toFixed(0)} ms fingerprint (medians of 3)`);
    });
  });

  it("a tokenizer changed under the same model key (a token renamed, a token added) is rebuilt and replaces the entry", async () => {
    await inContext(async (context) => {
      const page = await open(context);
      expect(await read(page, "m")).toMatchObject({ from: "built", stored: true });
      const renamed = await read(page, "m", "rename");
      expect(renamed).toMatchObject({ from: "built", stored: true, identical: true, helloText: "hellp" });
      expect(await read(page, "m", "rename")).toMatchObject({ from: "cache", identical: true, helloText: "hellp" });
      expect(await read(page, "m", "added")).toMatchObject({ from: "built", identical: true });
      // The original again: its entry was replaced, so it is rebuilt, not read stale.
      expect(await read(page, "m")).toMatchObject({ from: "built", identical: true, helloText: "hello" });
    });
  });

  it("a corrupt entry is rejected and rebuilt, and the rebuilt one is read next time", async () => {
    await inContext(async (context) => {
      const page = await open(context);
      await read(page, "m");
      await page.evaluate(() => vocabularyTest.corrupt("m"));
      expect(await read(page, "m")).toMatchObject({ from: "built", stored: true, identical: true });
      expect(await read(page, "m")).toMatchObject({ from: "cache", identical: true });
    });
  });

  it("writes that fail (injected quota error) lose nothing: the built vocabulary is used, and one warning is printed", async () => {
    await inContext(async (context) => {
      const warnings: string[] = [];
      const page = await open(context, warnings);
      await page.evaluate(() => vocabularyTest.failWrites());
      expect(await read(page, "m")).toMatchObject({ from: "built", stored: false, identical: true });
      expect(await read(page, "m")).toMatchObject({ from: "built", stored: false, identical: true });
      await expect.poll(() => warnings.length).toBe(1);
      expect(warnings[0]).toMatch(/vocabulary could not be stored in IndexedDB \(.*quota is full.*\); it is built on each load instead/);
    });
  });

  it("a database it cannot read (another version's, without the store) falls back to building, with one warning", async () => {
    await inContext(async (context) => {
      const warnings: string[] = [];
      const page = await open(context, warnings);
      await page.evaluate(() => vocabularyTest.createDatabaseWithoutStore());
      expect(await read(page, "m")).toMatchObject({ from: "built", stored: false, identical: true });
      expect(await read(page, "m")).toMatchObject({ from: "built", stored: false, identical: true });
      await expect.poll(() => warnings.length).toBe(1);
      expect(warnings[0]).toMatch(/vocabulary could not be read from IndexedDB/);
    });
  });
});
