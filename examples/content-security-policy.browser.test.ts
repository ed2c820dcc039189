// The examples under the Content-Security-Policies that
// docs/guide/content-security-policy.md gives (read from the page itself, so
// the docs and this test cannot drift), sent by the server on every response,
// in headless Chromium: a person's whole flow through <AgentChat> (the Field
// Store) and <web-agents-chat> (the plain-HTML page), with no violation; and
// a policy missing one directive, whose part the person is told about.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { STORE_SCRIPTED_ANSWER, storeScriptedModel } from "../models/test-models/example-scripted-models.js";
import { ensureTestModel } from "../models/test-models/index.js";
import { launchChromium } from "../runtime/test-support/launch-chromium.js";
import { shopThroughElement } from "../runtime/test-support/shop-through-element.js";
import { serveExamples, type ExamplesServer } from "./test-support/serve-examples.js";

const guide = readFileSync(fileURLToPath(new URL("../docs/guide/content-security-policy.md", import.meta.url)), "utf8");

/** The policy the guide gives under `<!-- policy: name -->`. */
function documentedPolicy(name: string): string {
  const match = new RegExp(`<!-- policy: ${name} -->\\s*\`\`\`http\\s*Content-Security-Policy: ([^\\n]+)\\n`).exec(guide);
  if (!match?.[1]) throw new Error(`docs/guide/content-security-policy.md has no policy "${name}".`);
  return match[1].trim();
}

/** The engine worker's file and ONNX Runtime's .mjs (its threads' workers start from it), as Vite names them. */
const ENGINE_FILE = /^\/assets\/(engine-worker|ort-wasm-simd-threaded\.asyncify)-[\w-]+\.m?js$/;

/** A violation a page or a worker reported: `directive blocked`. */
const VIOLATIONS = "__violations";

let server: ExamplesServer;
let browser: Browser;
/** The policy of the response for a path, switched by each test. */
let policyFor: (path: string) => string | undefined = () => undefined;

beforeAll(async () => {
  await ensureTestModel(storeScriptedModel());
  [server, browser] = await Promise.all([serveExamples({ testModels: true, contentSecurityPolicy: (path) => policyFor(path) }), launchChromium({ webmcp: true })]);
}, 90_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** Records a worker's `securitypolicyviolation`s in `self.__seen`, once. */
const WATCH_WORKER = `if (!self.__seen) { self.__seen = []; self.addEventListener("securitypolicyviolation", (event) => self.__seen.push("worker " + event.effectiveDirective + " " + event.blockedURI)); }`;

/** A fresh page that records every `securitypolicyviolation` of the page and of its workers, and its errors. */
async function openWatched(path: string) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 760 } });
  const page = await context.newPage();
  const errors: string[] = [];
  const violations: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  await page.exposeFunction(VIOLATIONS, (line: string) => violations.push(line));
  await page.addInitScript((name) => {
    document.addEventListener("securitypolicyviolation", (event) => (window as unknown as Record<string, (line: string) => void>)[name]!(`page ${event.effectiveDirective} ${event.blockedURI}`));
  }, VIOLATIONS);
  // The engine worker's violations, from its first line: its capability probe compiles WebAssembly as
  // soon as it starts, before a listener added from outside (below) would be there. Its script is
  // served as it is, headers (its own policy) included, with the listener in front.
  await page.route(/\/engine-worker[^/]*\.(js|ts)(\?|$)/, async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, body: `${WATCH_WORKER}\n${await response.text()}` });
  });
  // Other workers' (ONNX Runtime's threads): they start only after the person's click, well after this runs.
  page.on("worker", (worker) => {
    void worker.evaluate(WATCH_WORKER).catch(() => {});
  });
  await page.goto(`${server.origin}${path}`);
  await page.waitForSelector("body[data-ready=true]", { state: "attached", timeout: 60_000 });
  const workerViolations = async () => (await Promise.all(page.workers().map((worker) => worker.evaluate(() => (self as unknown as { __seen?: string[] }).__seen ?? []).catch(() => [])))).flat();
  return {
    page,
    errors,
    /** Every violation so far, but the example pages' own `data:` favicon (img-src, which the guide leaves to the site). */
    violations: async () => [...violations, ...(await workerViolations())].filter((line) => !line.includes(" img-src ")),
    // A test may end while the worker's script is still in flight through the route: drop it quietly.
    close: async () => {
      await page.unrouteAll({ behavior: "ignoreErrors" });
      await context.close();
    },
  };
}

/** The Field Store's chat, opened, with the scripted model downloaded and its composer ready. */
async function openFieldStoreChat(page: Page) {
  await page.click("#open-chat");
  const chat = page.locator("#chat [data-web-agents-ui]");
  return chat;
}

describe("the examples under the guide's Content-Security-Policy", () => {
  it("<AgentChat>: the Field Store's whole flow under the tightest policies (the page without 'wasm-unsafe-eval', the engine's files with their own), with no violation", async () => {
    const [page, worker] = [documentedPolicy("page"), documentedPolicy("worker")];
    expect(page).not.toContain("wasm-unsafe-eval");
    expect(page).not.toMatch(/unsafe-inline|unsafe-eval|blob:/);
    policyFor = (path) => (ENGINE_FILE.test(path) ? worker : page);
    const watched = await openWatched("/field-store/?model=test-store-scripted");
    try {
      const chat = await openFieldStoreChat(watched.page);
      // Styled: the chat's stylesheet applies under style-src 'self' (a constructed sheet, not a <style>).
      expect(await chat.locator(".root").evaluate((root) => getComputedStyle(root).borderTopStyle)).toBe("solid");
      await chat.locator("button", { hasText: /Download/ }).click({ timeout: 30_000 });
      const composer = chat.locator("textarea:not([disabled])");
      await composer.waitFor({ timeout: 60_000 });
      await composer.fill("Buy me a pair of trail socks");
      await composer.press("Enter");
      await chat.locator('.tool[data-tool="place_order"][data-state="awaiting-confirmation"]').waitFor({ timeout: 60_000 });
      await watched.page.click("#place-order");
      await chat.getByText(STORE_SCRIPTED_ANSWER).waitFor({ timeout: 30_000 });
      expect(await watched.page.textContent("#cart-badge")).toBe("0");
      expect(await watched.violations()).toEqual([]);
      expect(watched.errors).toEqual([]);
    } finally {
      await watched.close();
    }
  }, 150_000);

  it("<web-agents-chat>: the plain-HTML page's whole flow under one policy on every response (plus its import map's hash), with no violation", async () => {
    const html = await (await fetch(`${server.origin}/plain-html/`)).text();
    const importMap = /<script type="importmap">([\s\S]*?)<\/script>/.exec(html)?.[1];
    expect(importMap).toBeDefined();
    const hash = `'sha256-${createHash("sha256").update(importMap!).digest("base64")}'`;
    const policy = documentedPolicy("every-response").replace("script-src 'self'", `script-src 'self' ${hash}`);
    policyFor = () => policy;
    const watched = await openWatched("/plain-html/");
    try {
      await shopThroughElement(watched.page);
      expect(await watched.violations()).toEqual([]);
      expect(watched.errors).toEqual([]);
    } finally {
      await watched.close();
    }
  }, 150_000);
});

describe("a policy missing one directive: the person reads what the site must allow", () => {
  it("without 'wasm-unsafe-eval' for the engine: before any download, the chat says WebAssembly is blocked and names the keyword and directive", async () => {
    const policy = documentedPolicy("every-response").replace(" 'wasm-unsafe-eval'", "");
    policyFor = () => policy;
    const watched = await openWatched("/field-store/?model=test-store-scripted");
    try {
      const chat = await openFieldStoreChat(watched.page);
      const sentence = chat.getByText("This site's Content-Security-Policy blocks WebAssembly, which the on-device model runs on: the site must add 'wasm-unsafe-eval' to script-src.", { exact: false });
      await sentence.first().waitFor({ timeout: 30_000 });
      // Where the person looks: the empty chat says it, not only the composer's note.
      expect(await chat.locator("[role=log]").textContent()).toContain("'wasm-unsafe-eval'");
      expect(await chat.locator("button", { hasText: /Download/ }).count()).toBe(0);
      expect(await watched.violations()).toContain("worker script-src wasm-eval");
      expect(watched.errors).toEqual([]);
    } finally {
      await watched.close();
    }
  }, 90_000);

  it("without the model's host in the engine's connect-src: the download stops with a sentence naming connect-src and the origin", async () => {
    const page = documentedPolicy("page");
    const worker = documentedPolicy("worker").replace("connect-src 'self'", "connect-src");
    policyFor = (path) => (ENGINE_FILE.test(path) ? worker : page);
    const watched = await openWatched("/field-store/?model=test-store-scripted");
    try {
      const chat = await openFieldStoreChat(watched.page);
      await chat.locator("button", { hasText: /Download/ }).click({ timeout: 30_000 });
      await chat
        .getByText(`This site's Content-Security-Policy blocks the download of Test model: Field Store script from ${server.origin}: the site must add ${server.origin} to connect-src.`, { exact: false })
        .first()
        .waitFor({ timeout: 30_000 });
      expect(await chat.locator(".root").textContent()).not.toMatch(/Check your connection|Failed to fetch/);
      expect(watched.errors).toEqual([]);
    } finally {
      await watched.close();
    }
  }, 90_000);

  // The page's own policy refusing one of the chat's parts: the sentence names the directive and the origin.
  it.each([
    {
      title: "a page whose worker-src refuses the engine worker: the chat names worker-src and the origin, not a crash",
      replace: ["worker-src 'self'", "worker-src 'none'"],
      cloud: false,
      sentence: (origin: string) => `This site's Content-Security-Policy blocks a file the on-device model needs: the site must add ${origin} to worker-src.`,
      before: /stopped|crashed|perhaps out of memory/,
    },
    {
      title: 'a page whose connect-src refuses /api/chat: the cloud option says so, naming connect-src and the origin, not "Check your connection"',
      replace: ["connect-src 'self'", "connect-src 'none'"],
      cloud: true,
      sentence: (origin: string) => `This site's Content-Security-Policy blocks the chat's connection to ${origin}: the site must add ${origin} to connect-src.`,
      before: /Check your connection/,
    },
  ])("$title", async ({ replace: [from, to], cloud, sentence, before }) => {
    const policy = documentedPolicy("page").replace(from!, to!);
    policyFor = () => policy;
    const watched = await openWatched("/field-store/?model=test-store-scripted");
    try {
      const chat = await openFieldStoreChat(watched.page);
      if (cloud) await chat.locator("select").selectOption("cloud");
      await chat.getByText(sentence(server.origin), { exact: false }).first().waitFor({ timeout: 30_000 });
      // What it said before the policy was read (the sentences of a broken part).
      expect(await chat.locator(".root").textContent()).not.toMatch(before);
      expect(watched.errors).toEqual([]);
    } finally {
      await watched.close();
    }
  }, 90_000);
});
