import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "../../runtime/test-support/launch-chromium.js";
import { modelFilesPlugin } from "../../runtime/test-support/model-files-plugin.js";
import { serveFixture } from "../../runtime/test-support/serve-fixture.js";
import { ensureTestModel } from "./ensure-test-model.js";
import { DEFAULT_QWEN35_ANSWER, DEFAULT_QWEN35_TOOL_CALL, qwen35ScriptedModel } from "./qwen35-scripted-model.js";
import { formatXmlToolCall } from "./format-xml-tool-call.js";
import { tinyQwen35Model } from "./qwen35-shaped-model.js";
import { PAGE_READY_MS } from "../../runtime/test-support/page-ready.js";

// The Qwen3.5 test models through transformers.js in headless Chromium:
// the tiny qwen3_5_text model (conv, recurrent and KV states) and the
// scripted Qwen3.5-format model's two-step tool loop, on WASM and on
// WebGPU (SwiftShader).
const fixture = fileURLToPath(new URL("./test-fixtures/qwen35-page/", import.meta.url));
/**
 * A third of it at most, as every test here (a new machine is 2.4-2.9 times
 * slower). The first WebGPU load compiles SwiftShader's shaders, work and not
 * waiting: 96 s of 180 s with the whole suite on one core (2026-12-05).
 */
const LOAD_TIMEOUT_MS = { wasm: 60_000, webgpu: 300_000 } as const;

type Result = { modelClass: string; sessions: string[]; promptTokens: number; tokens: number[]; text: string; ms: number };
type Qwen35Page = {
  generate(messages: unknown[], options: { id: string; device: "wasm" | "webgpu"; maxNewTokens: number; enableThinking?: boolean; tools?: unknown[] }): Promise<Result>;
  webgpuAdapter(): Promise<string | null>;
};
declare global {
  // eslint-disable-next-line no-var
  var qwen35: Qwen35Page;
}

const tools = [
  {
    type: "function",
    function: {
      name: "add_to_cart",
      description: "Adds a product to the cart.",
      parameters: { type: "object", properties: { sku: { type: "string" }, quantity: { type: "integer" } }, required: ["sku", "quantity"] },
    },
  },
];

describe.each(["wasm", "webgpu"] as const)("the Qwen3.5 test models in headless Chromium on %s", (device) => {
  let browser: Browser;
  let server: Awaited<ReturnType<typeof serveFixture>>;
  let page: Page;

  beforeAll(async () => {
    const [tiny] = await Promise.all([ensureTestModel(tinyQwen35Model()), ensureTestModel(qwen35ScriptedModel())]);
    [browser, server] = await Promise.all([launchChromium({ webgpu: device === "webgpu" }), serveFixture(fixture, [modelFilesPlugin(join(tiny.folder, ".."))])]);
    page = await browser.newPage();
    page.on("pageerror", (error) => console.error("[page]", error.message));
    await page.goto(server.url);
    await page.waitForSelector("body[data-ready=true]", { state: "attached", timeout: PAGE_READY_MS });
    if (device === "webgpu") expect(await page.evaluate(() => qwen35.webgpuAdapter())).not.toBeNull();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it("loads tiny-qwen35 as Qwen3_5ForCausalLM and generates through its states", async () => {
    const messages = [{ role: "user", content: "Hi" }];
    const result = await page.evaluate((options) => qwen35.generate(options.messages, options.run), { messages, run: { id: "tiny-qwen35", device, maxNewTokens: 8 } });
    expect(result.modelClass).toBe("Qwen3_5ForCausalLM");
    expect(result.sessions).toEqual(["model"]);
    expect(result.tokens.length).toBeGreaterThan(0);
    expect(result.tokens.length).toBeLessThanOrEqual(8);
    // The first load on WebGPU compiles SwiftShader's shaders: 48 s of the 60 s it had on this machine on 2026-12-02 (WASM: 5 s).
  }, LOAD_TIMEOUT_MS[device]);

  it("runs scripted-qwen35's tool loop: an XML call with typed parameters, then the answer", async () => {
    const messages: { role: string; content: string; tool_calls?: unknown[] }[] = [{ role: "user", content: "Add two pairs of socks." }];
    const run = { id: "scripted-qwen35", device, maxNewTokens: 80, tools, enableThinking: true };
    const first = await page.evaluate((options) => qwen35.generate(options.messages, options.run), { messages, run });
    expect(first.text).toBe(formatXmlToolCall(DEFAULT_QWEN35_TOOL_CALL));
    messages.push(
      { role: "assistant", content: "", tool_calls: [{ type: "function", function: DEFAULT_QWEN35_TOOL_CALL }] },
      { role: "tool", content: '{"ok": true}' },
    );
    const second = await page.evaluate((options) => qwen35.generate(options.messages, options.run), { messages, run });
    expect(second.text).toBe(DEFAULT_QWEN35_ANSWER);
  }, 60_000);
});
