import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureTestModel, tinyModel, tinyQwen35Model } from "../models/test-models/index.js";
import { launchChromium } from "../runtime/test-support/launch-chromium.js";
import { modelFilesPlugin } from "../runtime/test-support/model-files-plugin.js";
import { serveFixture } from "../runtime/test-support/serve-fixture.js";
import type { RawEngineEvent, GenerateRequest, GenerationUsage } from "./protocol.js";
import { testModelSource } from "./test-fixtures/test-model-source.js";

// Prefix reuse on WebGPU (SwiftShader in headless Chromium): the caches stay
// GPU buffers between steps. Tiny Qwen3's KV cache is downloaded and cut to
// the common prefix; tiny Qwen3.5's snapshot is handed to generate() as
// aliases, so it can be reused twice. Greedy output equals a fresh prefill's.
const fixture = fileURLToPath(new URL("./test-fixtures/engine-page/", import.meta.url));

declare global {
  // eslint-disable-next-line no-var
  var engineTest: { generate(request: GenerateRequest): Promise<RawEngineEvent[]>; webgpuAdapter(): Promise<string | null> };
}

const tools = [{ name: "add_to_cart", description: "Adds a product to the cart.", inputSchema: { type: "object", properties: { sku: { type: "string" } }, required: ["sku"] } }];
const step1: GenerateRequest["messages"] = [{ role: "user", content: "Add socks to my cart." }];
const step2: GenerateRequest["messages"] = [
  ...step1,
  { role: "assistant", content: "", tool_calls: [{ type: "function", function: { name: "add_to_cart", arguments: { sku: "socks" } } }] },
  { role: "tool", content: '{"ok":true}' },
];

const textOf = (events: RawEngineEvent[]) => events.flatMap((event) => (event.type === "text" ? [event.text] : [])).join("");
const usageOf = (events: RawEngineEvent[]): GenerationUsage => events.flatMap((event) => (event.type === "usage" ? [event.usage] : []))[0]!;

let browser: Browser;
let server: Awaited<ReturnType<typeof serveFixture>>;
let page: Page;

beforeAll(async () => {
  const [tiny] = await Promise.all([ensureTestModel(tinyModel()), ensureTestModel(tinyQwen35Model())]);
  [browser, server] = await Promise.all([launchChromium({ webgpu: true }), serveFixture(fixture, [modelFilesPlugin(dirname(tiny.folder))])]);
  page = await browser.newPage();
  page.on("pageerror", (error) => console.error("[page]", error.message));
  await page.goto(server.url);
  await page.waitForSelector("body[data-ready=true]", { state: "attached", timeout: 60_000 });
  expect(await page.evaluate(() => engineTest.webgpuAdapter())).not.toBeNull();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe.each([
  ["qwen3", "tiny"],
  ["qwen3.5", "tiny-qwen35"],
] as const)("prefix reuse on WebGPU (tiny %s)", (format, id) => {
  const model = testModelSource(id, { key: `${id}/webgpu-fp32`, device: "webgpu", repo: `models/test/${id}/resolve/main`, format });
  const ask = (conversationId: string, messages: GenerateRequest["messages"]) =>
    page.evaluate((request) => engineTest.generate(request), { id: `${conversationId}-${messages.length}`, model, conversationId, messages, tools, maxNewTokens: 2, temperature: 0 } satisfies GenerateRequest);

  it("a tool loop's second step reuses the first's GPU cache and answers as a fresh prefill does", async () => {
    const first = await ask("loop", step1);
    const reused = await ask("loop", step2);
    const fresh = await ask("fresh", step2);
    expect(usageOf(fresh).cachedPromptTokens).toBe(0);
    if (format === "qwen3.5") expect(usageOf(reused).cachedPromptTokens).toBe(usageOf(first).promptTokens - 1);
    else expect(usageOf(reused).cachedPromptTokens).toBeGreaterThan(usageOf(first).promptTokens - 10);
    expect(textOf(reused)).toBe(textOf(fresh));
    expect(usageOf(reused).outputTokens).toBe(usageOf(fresh).outputTokens);

    // The same prompt again: the kept cache (a snapshot: the same GPU buffers, a second time) serves it.
    const again = await ask("loop", step2);
    expect(usageOf(again).cachedPromptTokens).toBe(usageOf(again).promptTokens - 1);
    expect(textOf(again)).toBe(textOf(fresh));
    // Two tokens: the first comes from the prefill on the reused cache, the second from a decode step on it.
    // Each forward pass on SwiftShader costs about 1.5 s on one idle core, whatever the prompt's length, so
    // a third token would add a quarter to the test. The four generations took 27 s on one idle core
    // (2026-12-07); in a one-core fresh-ci run beside other files, three tokens took 206 s.
  }, 360_000);
});
