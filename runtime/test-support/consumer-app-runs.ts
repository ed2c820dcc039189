/**
 * What runtime/package-build.test.ts checks in each site it builds from the
 * packed tarball: the page opened in headless Chromium, its agent run
 * through the installed package, and the answer, the workers and the
 * element's events checked.
 * @module
 */
import type { ChildProcess } from "node:child_process";
import type { Browser } from "playwright-core";
import { expect } from "vitest";
import { launchChromium } from "./launch-chromium.js";
import { sharedWorkerTargets } from "./shared-worker-targets.js";
import { shopThroughElement } from "./shop-through-element.js";

let browser: Promise<Browser> | undefined;

/** One Chromium for the test file; each site opens in a fresh context of it (its own storage and caches, as a new visitor). */
function chromium(): Promise<Browser> {
  return (browser ??= launchChromium());
}

/** Closes the file's Chromium, if one was launched (the file's afterAll). */
export async function closeChromium(): Promise<void> {
  const launched = browser;
  browser = undefined;
  await (await launched?.catch(() => undefined))?.close();
}

/**
 * Opens the built site in headless Chromium and runs its agent: a tool call on the page, then the answer.
 * Resolves with the URLs of the workers the page started (the engine worker, and ONNX Runtime's threads).
 */
export async function expectToolLoop(url: string, expected: { input: unknown; answer: string } = { input: { sku: "socks" }, answer: "Added socks to your cart." }): Promise<{ workers: string[]; sharedWorkers: string[] }> {
  const browser = await chromium();
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const workers: string[] = [];
    page.on("worker", (worker) => workers.push(worker.url()));
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    page.on("console", (message) => message.type() === "error" && errors.push(message.text()));
    await page.goto(url);
    await page
      .waitForSelector("body[data-ready=true]", { state: "attached", timeout: 60_000 })
      .catch((error: Error) => Promise.reject(new Error(`${error.message}\npage errors: ${errors.join("\n")}`)));
    const result = await page.evaluate(() => (window as unknown as { runConsumer: () => Promise<any> }).runConsumer().catch((error: Error) => ({ thrown: error.message })));
    expect(result.thrown, `page errors: ${errors.join("\n")}`).toBeUndefined();
    expect(result.error).toBeUndefined();
    expect(result.state).toBe("ready");
    const parts = result.messages.flatMap((message: { parts: { type: string; text?: string }[] }) => message.parts);
    expect(parts.find((part: { type: string }) => part.type === "tool")).toMatchObject({ name: "add_to_cart", state: "done", input: expected.input });
    expect(parts.filter((part: { type: string }) => part.type === "text").map((part: { text?: string }) => part.text).join("")).toContain(expected.answer);
    // The on-device adapter reports what the last step cost.
    expect(result.usage).toMatchObject({ promptTokens: expect.any(Number), outputTokens: expect.any(Number) });
    expect(result.usage.promptTokens).toBeGreaterThan(0);
    expect(await page.textContent("#badge")).toBe("1");
    const origin = new URL(url).origin;
    const sharedWorkers = (await sharedWorkerTargets(browser)).map((target) => target.url).filter((worker) => worker.startsWith(origin));
    return { workers, sharedWorkers };
  } finally {
    await context.close();
  }
}

/** The Qwen3.5-shaped model (random weights) through the same public API: it loads, generates in the loop, ends, and reports usage. */
export async function expectShapedRun(url: string) {
  const context = await (await chromium()).newContext();
  try {
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    await page.goto(url);
    await page.waitForSelector("body[data-ready=true]", { state: "attached", timeout: 60_000 });
    const result = await page.evaluate(() => (window as unknown as { runConsumer: () => Promise<any> }).runConsumer().catch((error: Error) => ({ thrown: error.message })));
    expect(result.thrown, errors.join("\n")).toBeUndefined();
    expect(result).toMatchObject({ status: "idle", state: "ready" });
    expect(result.usage.promptTokens).toBeGreaterThan(0);
    expect(result.usage.outputTokens).toBeGreaterThan(0);
    // The site's generation option reached the worker: the reply stopped at its cap.
    expect(result.usage.outputTokens).toBeLessThanOrEqual(32);
    expect(errors).toEqual([]);
  } finally {
    await context.close();
  }
}

/**
 * Opens the plain-HTML Field Store at `url` and runs its shopping flow through `<web-agents-chat>` on the
 * scripted model: the download, the message, two Allow clicks with the cursor parked beside them, the
 * answer; checks the order, the element's DOM events in order, and that nothing but /api/chat was missing.
 */
export async function expectElementToolLoop(url: string) {
  const context = await (await chromium()).newContext();
  try {
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    page.on("console", (message) => message.type() === "error" && !message.text().startsWith("Failed to load resource") && errors.push(message.text()));
    const missing: string[] = [];
    page.on("response", (response) => response.status() >= 400 && missing.push(new URL(response.url()).pathname));
    await page.goto(url);
    await page.waitForSelector("body[data-ready=true]", { state: "attached", timeout: 60_000 }).catch((error: Error) => Promise.reject(new Error(`${error.message}\n${errors.join("\n")}`)));
    await page.evaluate(() => {
      const seen: string[] = ((window as unknown as { seen: string[] }).seen = []);
      for (const type of ["web-agents-tool-call", "web-agents-confirmation", "web-agents-finish", "web-agents-error"]) {
        document.addEventListener(type, (event) => seen.push(`${type}:${String((event as CustomEvent).detail.name ?? (event as CustomEvent).detail.tool ?? "")}`));
      }
    });
    await shopThroughElement(page, { parkedCursor: true });
    const seen = await page.evaluate(() => (window as unknown as { seen: string[] }).seen);
    expect(seen).toEqual([
      "web-agents-tool-call:go_to",
      "web-agents-tool-call:add_to_cart",
      "web-agents-confirmation:add_to_cart",
      "web-agents-tool-call:go_to",
      "web-agents-tool-call:place_order",
      "web-agents-confirmation:place_order",
      "web-agents-finish:",
    ]);
    expect(errors).toEqual([]);
    // Every file the page needs is in the package; only the cloud adapter's /api/chat (no server here) is missing.
    expect([...new Set(missing)]).toEqual(["/api/chat"]);
  } finally {
    await context.close();
  }
}

/** Waits until `url` answers 200. */
export async function waitForServer(url: string, child: ChildProcess, log: () => string) {
  for (let attempt = 0; attempt < 300; attempt++) {
    if (child.exitCode !== null) throw new Error(`The server exited (${child.exitCode}):\n${log()}`);
    const ok = await fetch(url).then((response) => response.ok, () => false);
    if (ok) return;
    await new Promise((done) => setTimeout(done, 100));
  }
  throw new Error(`${url} never answered:\n${log()}`);
}
