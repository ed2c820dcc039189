// Failover end to end in headless Chromium: the real local adapter (the real
// engine worker, transformers.js on WASM, the scripted test model that calls
// add_to_cart then answers) in front of the real cloud adapter against the
// real createChatHandler over HTTP on 127.0.0.1, both behind
// createFallbackAdapter, in a real session with a real page tool. Two things
// are not real: the cloud's model is the AI SDK's MockLanguageModelV3 (no
// provider can be reached here), and the device's faults are INJECTED
// (test-fixtures/faulty-engine-worker.ts): the worker is terminated, or the
// generation rejects as a lost GPU device, at a seeded random streamed-text
// event of the turn.
//
// The fault lands on a streamed-text event (transformers.js's TextStreamer
// sends a word or so at a time), not on a single token.
// FALLBACK_RUNS sets how many faulted runs: 10 by default (CI); the full 50:
//   FALLBACK_RUNS=50 npx vitest run runtime/adapters/fallback/fallback.browser.test.ts
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { LanguageModelV3CallOptions } from "@ai-sdk/provider";
import type { Browser, Page } from "playwright-core";
import type { Plugin } from "vite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_SCRIPTED_ANSWER, ensureTestModel, scriptedModel as scriptedTestModel } from "../../../models/test-models/index.js";
import { createChatHandler } from "../../server/create-chat-handler.js";
import { scriptedModel, textStep, toolStep } from "../../server/test-support/scripted-model.js";
import { toNodeListener } from "../../server/to-node-listener.js";
import type { AdapterStatus } from "../../session/agent-adapter.js";
import type { AgentMessage, ToolPart } from "../../session/agent-message.js";
import type { AgentStreamPart } from "../../session/agent-stream-part.js";
import { launchChromium } from "../../test-support/launch-chromium.js";
import { modelFilesPlugin } from "../../test-support/model-files-plugin.js";
import { reactFixture } from "../../test-support/react-fixture-plugin.js";
import { serveFixture } from "../../test-support/serve-fixture.js";
import type { InjectedFault } from "./test-fixtures/faulty-engine-worker.js";
import { PAGE_READY_MS } from "../../test-support/page-ready.js";
import { waitForPageValue } from "../../test-support/wait-for-page-value.js";

const fixture = fileURLToPath(new URL("./test-fixtures/fallback-page/", import.meta.url));
const chatFixture = fileURLToPath(new URL("./test-fixtures/fallback-chat-page/", import.meta.url));
const RUNS = Number(process.env.FALLBACK_RUNS ?? 10);
const CLOUD_ANSWER = "Socks are in your cart (answered in the cloud).";

type RunResult = {
  executions: number;
  faultAt?: number;
  finishAt?: number;
  last?: AgentStreamPart;
  error?: string;
  notice?: string;
  messages: AgentMessage[];
  counts: number[];
  usages: { outputTokens: number }[];
  adapters: string[];
};
type Harness = {
  status(): AdapterStatus;
  localStatus(): AdapterStatus;
  cloudStatus(): AdapterStatus;
  prepare(): Promise<void>;
  counts(): number[];
  run(fault?: InjectedFault): Promise<RunResult>;
};
declare global {
  // eslint-disable-next-line no-var
  var fallbackHarness: Harness;
}

/** The cloud's model: add the socks unless the conversation already holds a tool result, then answer. */
let cloudCalls = 0;
const cloudModel = scriptedModel((call: LanguageModelV3CallOptions) =>
  call.prompt.some((message) => message.role === "tool") ? textStep(CLOUD_ANSWER) : toolStep("add_to_cart", { sku: "socks" }, `cloud-call-${++cloudCalls}`),
);
const chatRoute: Plugin = {
  name: "chat-route",
  configureServer(server) {
    const handler = createChatHandler({ model: cloudModel, maxSteps: 4, label: "Test cloud" });
    server.middlewares.use("/api/chat", toNodeListener(handler));
  },
};

/** mulberry32: the same draws on every machine. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const toolParts = (messages: AgentMessage[]) => messages.flatMap((message) => message.parts.filter((part): part is ToolPart => part.type === "tool"));
const textOf = (message: AgentMessage | undefined) => message?.parts.map((part) => (part.type === "text" ? part.text : "")).join("") ?? "";

/** A ceiling of 60 s unless told: these waits include loading the model on the CPU. */
const waitFor = <T>(page: Page, read: () => T, check: (value: T) => boolean, what: string, timeoutMs = 60_000) =>
  waitForPageValue(page, read, check, what, timeoutMs);

describe("createFallbackAdapter([local, cloud]) in headless Chromium: faults injected on the device, the real cloud path behind it", () => {
  let browser: Browser;
  let server: Awaited<ReturnType<typeof serveFixture>>;
  let page: Page;
  let modelsRoot = "";
  /** The clean turn's streamed-text events, in all and after step 1 (the tool call). */
  let events = { total: 0, step1: 0 };

  beforeAll(async () => {
    const scripted = await ensureTestModel(scriptedTestModel());
    modelsRoot = join(scripted.folder, "..");
    [browser, server] = await Promise.all([launchChromium(), serveFixture(fixture, [modelFilesPlugin(modelsRoot), chatRoute])]);
    page = await browser.newPage();
    page.on("pageerror", (error) => console.error("[page]", error.message));
    await page.goto(server.url);
    await page.waitForSelector("body[data-ready=true]", { state: "attached", timeout: PAGE_READY_MS });
    await waitFor(page, () => [fallbackHarness.localStatus().state, fallbackHarness.cloudStatus().state], ([local, cloud]) => local !== "loading" && cloud === "ready", "the probe and the cloud check");
    await page.evaluate(() => fallbackHarness.prepare());
    await waitFor(page, () => fallbackHarness.localStatus().state, (state) => state === "ready", "the model to load");
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it("a clean turn runs on the device: one add_to_cart, the scripted answer, no switch", async () => {
    const result = await page.evaluate(() => fallbackHarness.run({ id: "clean", kind: "device-lost", atEvent: Number.MAX_SAFE_INTEGER }));
    expect(result.error).toBeUndefined();
    expect(result.last).toEqual({ type: "finish", reason: "stop" });
    expect(result.notice).toBeUndefined();
    expect(result.executions).toBe(1);
    expect(textOf(result.messages.at(-1))).toBe(DEFAULT_SCRIPTED_ANSWER);
    const counts = await waitFor(page, () => fallbackHarness.counts(), (counts) => counts.length === 2, "both generations' event counts", 5_000);
    events = { total: counts[1]!, step1: counts[0]! };
    expect(events.step1).toBeGreaterThan(0);
    expect(events.total).toBeGreaterThan(events.step1);
    const tokens = result.usages.map((usage) => usage.outputTokens);
    console.info(`[failover] clean turn: ${events.step1} streamed-text events in step 1 (the tool call), ${events.total} in all; output tokens per step ${tokens.join(", ")}`);
  }, 60_000);

  it(`${RUNS} faulted turns (seeded: worker terminated or device lost at a random event) all complete in the cloud within 2 s of the fault, add_to_cart run once each`, async () => {
    expect(events.total).toBeGreaterThan(0);
    const draw = random(16);
    const lines: string[] = [];
    const latencies: number[] = [];
    let inStep1 = 0;
    for (let run = 0; run < RUNS; run++) {
      const kind = run % 2 === 0 ? "kill" : "device-lost";
      const atEvent = 1 + Math.floor(draw() * events.total);
      const result = await page.evaluate((fault) => fallbackHarness.run(fault), { id: `run-${run}`, kind, atEvent } satisfies InjectedFault);
      const what = `run ${run} (${kind} at event ${atEvent} of ${events.total})`;
      expect(result.faultAt, `${what}: the fault fired`).toBeDefined();
      expect(result.error, what).toBeUndefined();
      expect(result.last, what).toEqual({ type: "finish", reason: "stop" });
      expect(result.adapters, what).toEqual(["local", "cloud"]);
      expect(result.notice, what).toMatch(/^The on-device model stopped \((its worker stopped|the device failed while answering)\); continuing with Test cloud\.$/);
      expect(result.executions, `${what}: add_to_cart ran once`).toBe(1);
      expect(textOf(result.messages.at(-1)), what).toBe(CLOUD_ANSWER);
      const done = toolParts(result.messages).filter((part) => part.state === "done");
      expect(done.map((part) => part.name), what).toEqual(["add_to_cart"]);
      // A fault during step 1 leaves no finished call: the cloud adds the socks. After it, the device's call stands.
      const cloudAdded = done[0]!.id.startsWith("cloud-call-");
      if (cloudAdded) inStep1++;
      const latency = result.finishAt! - result.faultAt!;
      latencies.push(latency);
      lines.push(`${what}: ${cloudAdded ? "cloud ran the call" : "device's call kept"}, fault -> finish ${latency.toFixed(0)} ms`);
      expect(latency, what).toBeLessThan(2_000);
    }
    const sorted = [...latencies].sort((a, b) => a - b);
    console.info(lines.join("\n"));
    console.info(
      `[failover] ${RUNS} faulted runs, ${RUNS} completed in the cloud, ${inStep1} with the fault before the call finished; fault -> finish: median ${sorted[Math.floor(sorted.length / 2)]!.toFixed(0)} ms, max ${sorted.at(-1)!.toFixed(0)} ms`,
    );
  }, 600_000);

  it("<AgentChat> over the same adapters: the composer opens on the cloud while the model needs a download; a worker killed mid-turn shows one line, then the cloud's answer, no error card", async () => {
    type ChatHarness = { arm(fault: InjectedFault): void; executions(): number; localStatus(): AdapterStatus; prepare(): Promise<void>; faultAt(): number | undefined };
    // Its own server (React pre-bundled: Vite reloads a page when it optimizes new dependencies), so its own origin and model cache.
    const chatServer = await serveFixture(chatFixture, [reactFixture, modelFilesPlugin(modelsRoot), chatRoute]);
    const chat = await browser.newPage();
    try {
      chat.on("pageerror", (error) => console.error("[chat page]", error.message));
      await chat.goto(chatServer.url);
      await chat.waitForSelector("body[data-ready=true]", { state: "attached", timeout: PAGE_READY_MS });
      // The best status is the cloud's ready: the composer opens, and no download card shows.
      await chat.locator("textarea:not([disabled])").waitFor({ timeout: 30_000 });
      await waitFor(chat, () => (window as unknown as { fallbackChat: ChatHarness }).fallbackChat.localStatus().state, (state) => state === "needs-download", "the probe");
      expect(await chat.locator('[aria-label="Download the model"]').count()).toBe(0);
      await chat.evaluate(() => (window as unknown as { fallbackChat: ChatHarness }).fallbackChat.prepare());
      await chat.evaluate(() => (window as unknown as { fallbackChat: ChatHarness }).fallbackChat.arm({ id: "chat", kind: "kill", atEvent: 3 }));
      await chat.locator("textarea").fill("Buy socks");
      await chat.getByRole("button", { name: "Send" }).click();
      await chat.getByText(CLOUD_ANSWER).waitFor({ timeout: 15_000 });
      expect(await chat.locator("[data-fallback-notice]").textContent()).toBe("The on-device model stopped (its worker stopped); continuing with Test cloud.");
      expect(await chat.getByRole("button", { name: "Try again" }).count()).toBe(0);
      expect(await chat.evaluate(() => (window as unknown as { fallbackChat: ChatHarness }).fallbackChat.executions())).toBe(1);
      expect(await chat.evaluate(() => (window as unknown as { fallbackChat: ChatHarness }).fallbackChat.faultAt())).toBeDefined();
    } finally {
      await chat.close();
      await chatServer.close();
    }
  }, 120_000);
});
