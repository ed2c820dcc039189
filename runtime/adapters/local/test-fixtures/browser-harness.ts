// Node-side helpers for the local adapter's browser tests: the server with the
// built test models, the page harness and the shared scripted tool-loop check.
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Browser, BrowserContext, Page } from "playwright-core";
import type { PluginOption } from "vite";
import { afterAll, beforeAll, expect } from "vitest";
import { CPU_FALLBACK_NOTE } from "../../../../models/catalog.js";
import { testModelEntries } from "../../../../models/catalog-test-models.js";
import { FALLBACK_ADAPTER_NOTE } from "../../../../models/resolve-variant.js";
import { DEFAULT_SCRIPTED_ANSWER, ensureTestModel, scriptedModel, tinyModel } from "../../../../models/test-models/index.js";
import { launchChromium } from "../../../test-support/launch-chromium.js";
import { serveFixture } from "../../../test-support/serve-fixture.js";
import type { AdapterStatus } from "../../../session/agent-adapter.js";
import type { AgentMessage, ToolPart } from "../../../session/agent-message.js";
import type { AgentStreamPart } from "../../../session/agent-stream-part.js";
import { modelFilesPlugin } from "../../../test-support/model-files-plugin.js";
import type { GenerationUsage } from "../../../../worker/protocol.js";
import { PAGE_READY_MS } from "../../../test-support/page-ready.js";
// Waits on each change of a page value, never for a fixed time; these tests call it `waitFor`.
import { waitForPageValue as waitFor } from "../../../test-support/wait-for-page-value.js";

const fixture = fileURLToPath(new URL("./local-page/", import.meta.url));

type Snapshot = { messages: AgentMessage[]; status: string; error?: { message: string }; adapterStatus: AdapterStatus };
type Harness = {
  start(options: { model: string; baseUrl: string; maxNewTokens?: number; autoLoad?: boolean; threads?: number; device?: "webgpu" | "wasm"; revision?: string; scriptedBuild?: { repo: string; files: { path: string; bytes: number }[] }; shared?: boolean }): Promise<void>;
  statuses(): AdapterStatus[];
  status(): AdapterStatus;
  models(): { id: string; cached?: boolean; selected?: boolean }[];
  parts(): AgentStreamPart[];
  /** Every generation's usage, as the engine reported it (`threads`: ONNX Runtime's WASM threads). */
  usages(): GenerationUsage[];
  /** Each load the engine was asked for, with the progress it reported (one that reads the files starts at 0). */
  loads(): { progress: number; stage?: string }[][];
  /** How many generations the page has asked the engine for. */
  generateCalls(): number;
  crossOriginIsolated(): boolean;
  prepare(): Promise<void>;
  prepareAndAbort(fraction: number): Promise<string>;
  deleteModel(id: string): Promise<void>;
  snapshot(): Snapshot;
  send(text: string): void;
  stop(): void;
  /** When Stop was pressed, when the session left streaming, when each run ended, and the parts the adapter sent from Stop on. */
  timings(): { stopAt?: number; leftStreamingAt?: number; runEndedAt: number[]; afterStop: { at: number; part: AgentStreamPart }[] };
  cachedFiles(repo: string): Promise<string[]>;
  manifestKeys(): Promise<string[]>;
  cart: string[];
};
declare global {
  /** The page's `window.harness` (test-fixtures/local-page/page.ts), inside `page.evaluate`. */
  // eslint-disable-next-line no-var
  var harness: Harness;
}

const started = Date.now();
/** Progress lines with elapsed time, to see where a slow run spends it. */
export const step = (what: string) => console.info(`[local-adapter ${((Date.now() - started) / 1000).toFixed(1)} s] ${what}`);

export const isModelFile = (url: string) => /\/(slow-)?models\/test\//.test(url);

/** The browser, the dev server with the built test models, and one context (one origin's storage) per describe. */
export type State = { browser: Browser; context: BrowserContext; server: Awaited<ReturnType<typeof serveFixture>>; modelRequests: string[] };

/** `plugins`: more server routes beside the test models (a fault-injecting file server). */
export function setUp(webgpu: boolean, plugins: PluginOption[] = []): State {
  const state = {} as State;
  beforeAll(async () => {
    const [scripted] = await Promise.all([ensureTestModel(scriptedModel()), ensureTestModel(tinyModel())]);
    const root = join(scripted.folder, "..");
    [state.browser, state.server] = await Promise.all([launchChromium({ webgpu }), serveFixture(fixture, [modelFilesPlugin(root), ...plugins])]);
    state.context = await state.browser.newContext();
    state.modelRequests = [];
    state.context.on("request", (request) => {
      if (isModelFile(request.url())) state.modelRequests.push(request.url());
    });
  }, 120_000);
  afterAll(async () => {
    await state.browser?.close();
    await state.server?.close();
  });
  return state;
}

export async function open(context: BrowserContext, url: string): Promise<Page> {
  const page = await context.newPage();
  page.on("pageerror", (error) => console.error("[page]", error.message));
  await page.goto(url);
  await page.waitForSelector("body[data-ready=true]", { state: "attached", timeout: PAGE_READY_MS });
  return page;
}

export { waitFor };

export const toolParts = (snapshot: Snapshot) => snapshot.messages.flatMap((message) => message.parts.filter((part): part is ToolPart => part.type === "tool"));
export const idle = (page: Page) => waitFor(page, () => harness.snapshot(), (snapshot) => snapshot.status !== "streaming", "the run to end");

/** Sends "Buy socks" and checks the scripted two-step tool loop ran on the page. */
export async function buySocks(page: Page, cartBefore: number): Promise<void> {
  await page.evaluate(() => harness.send("Buy socks"));
  const done = await idle(page);
  expect(done.error).toBeUndefined();
  expect(done.status).toBe("idle");
  const [call] = toolParts(done);
  expect(call).toMatchObject({ name: "add_to_cart", input: { sku: "socks" }, state: "done" });
  expect(call!.output?.content).toEqual([{ type: "text", text: "Added socks." }]);
  const answer = done.messages.at(-1)!;
  expect(answer.role).toBe("assistant");
  expect(answer.parts.at(-1)).toEqual({ type: "text", text: DEFAULT_SCRIPTED_ANSWER });
  expect(await page.textContent("#badge")).toBe(String(cartBefore + 1));
  const parts = await page.evaluate(() => harness.parts());
  expect(parts.filter((part) => part.type === "step-finish")).toHaveLength(2);
  expect(parts.at(-1)).toEqual({ type: "finish", reason: "stop" });
}

/** The download and the two-step tool loop on a fresh page (the first page load of a context). */
export async function downloadAndBuySocks(state: State, device: "wasm" | "webgpu"): Promise<void> {
  const page = await open(state.context, state.server.url);
  // On webgpu only the WebGPU variant is offered: on SwiftShader the adapter would rightly pick the CPU one.
  await page.evaluate((device) => harness.start({ model: "test-scripted", baseUrl: "/models/test", ...(device === "webgpu" && { device }) }), device);
  const waiting = await waitFor(page, () => harness.status(), (status) => status.state !== "loading", "the probe");
  expect(waiting).toMatchObject({ state: "needs-download", note: device === "wasm" ? CPU_FALLBACK_NOTE : FALLBACK_ADAPTER_NOTE });
  // The size the catalog gives for the variant, before a byte is fetched.
  const variant = testModelEntries({ baseUrl: "/models/test" }).find((entry) => entry.id === "test-scripted")!.variants.find((entry) => entry.device === device)!;
  expect((waiting as { bytes: number }).bytes).toBe(variant.bytes);

  await page.evaluate(() => harness.prepare());
  step(`${device}: downloaded and loaded`);
  expect(state.modelRequests).toHaveLength(5);
  const statuses = await page.evaluate(() => harness.statuses());
  const states = statuses.map((status) => status.state).filter((s, i, all) => s !== all[i - 1]);
  expect(states).toEqual(["loading", "needs-download", "downloading", "loading", "ready"]);
  const progress = statuses.flatMap((status) => (status.state === "downloading" ? [status.progress] : []));
  expect(progress.length).toBeGreaterThan(2);
  expect(progress.some((value) => value > 0 && value < 1)).toBe(true);
  expect(progress.every((value, i) => i === 0 || value >= progress[i - 1]!)).toBe(true);
  // The variant the probe chose for this device is the one downloaded.
  expect(await page.evaluate(() => harness.manifestKeys())).toEqual([`test-scripted/${device}-fp32`]);

  await buySocks(page, 0);
  step(`${device}: answered`);
  await page.close();
}

