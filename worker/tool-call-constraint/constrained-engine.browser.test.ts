import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Validator } from "@cfworker/json-schema";
import { modelFormat } from "../../models/model-formats.js";
import { ensureTestModel, tinyModel, tinyQwen35Model } from "../../models/test-models/index.js";
import { launchChromium } from "../../runtime/test-support/launch-chromium.js";
import { modelFilesPlugin } from "../../runtime/test-support/model-files-plugin.js";
import { serveFixture } from "../../runtime/test-support/serve-fixture.js";
import { randomTools } from "../../bench/constraint/random-json-schema.js";
import type { GenerateRequest, RawEngineEvent } from "../protocol.js";
import { testModelSource } from "../test-fixtures/test-model-source.js";

// xgrammar in the browser: the engine on a page served by Vite (the UMD file as
// an ES module there), WASM, sampled calls at temperature 1 held to the schemas.
const fixture = fileURLToPath(new URL("../test-fixtures/engine-page/", import.meta.url));

declare global {
  // eslint-disable-next-line no-var
  var engineTest: { generate(request: GenerateRequest): Promise<RawEngineEvent[]>; webgpuAdapter(): Promise<string | null> };
}

let browser: Browser;
let server: Awaited<ReturnType<typeof serveFixture>>;
let page: Page;

beforeAll(async () => {
  const [tiny] = await Promise.all([ensureTestModel(tinyModel()), ensureTestModel(tinyQwen35Model())]);
  [browser, server] = await Promise.all([launchChromium(), serveFixture(fixture, [modelFilesPlugin(dirname(tiny.folder))])]);
  page = await browser.newPage();
  page.on("pageerror", (error) => console.error("[page]", error.message));
  await page.goto(server.url);
  await page.waitForSelector("body[data-ready=true]", { state: "attached", timeout: 60_000 });
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe.each([
  ["qwen3", "tiny"],
  ["qwen3.5", "tiny-qwen35"],
] as const)("constrained calls in Chromium (tiny, %s format)", (format, id) => {
  it("three sampled calls in required mode parse and validate against the random schemas", async () => {
    const model = testModelSource(id, { repo: `models/test/${id}/resolve/main`, format });
    const tools = randomTools(format === "qwen3" ? 31 : 32, 3);
    for (let call = 0; call < 3; call++) {
      const request: GenerateRequest = { id: `${id}-${call}`, model, conversationId: `${id}-${call}`, messages: [{ role: "user", content: "Call a tool." }], tools, maxNewTokens: 96, temperature: 1, toolChoice: "required" };
      const events = await page.evaluate((request) => engineTest.generate(request), request);
      const text = events.flatMap((event) => (event.type === "text" ? [event.text] : [])).join("");
      const parser = modelFormat(format).createParser({ tools, thinking: false });
      const calls = [...parser.push(text), ...parser.end()].filter((event) => event.type === "tool-call" || event.type === "tool-call-invalid");
      expect(calls[0]?.type, text).toBe("tool-call");
      if (calls[0]?.type !== "tool-call") return;
      const { name, input } = calls[0];
      const tool = tools.find((candidate) => candidate.name === name);
      expect(tool, text).toBeDefined();
      expect(new Validator(tool!.inputSchema as never, "2020-12", false).validate(input).valid, text).toBe(true);
    }
  }, 180_000);
});
