// <AgentChat> end to end on the real cloud path: the widget with no adapter
// given (the one shared createCloudAdapter(), POSTing to /api/chat) in
// headless Chromium, page tools under <WebAgentsProvider>, against the real
// createChatHandler over HTTP. Only the model is a double (the AI SDK's
// MockLanguageModelV3), and the rate limit's counter store, so the test
// decides which POST the real rate limit refuses.
import { mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Browser, Page } from "playwright-core";
import type { Plugin } from "vite";
import type { MockLanguageModelV3 } from "ai/test";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ChatRequestBody } from "../runtime/server/chat-wire.js";
import type { CounterStore } from "../runtime/server/counter-store.js";
import { createChatHandler } from "../runtime/server/create-chat-handler.js";
import { scriptedModel, textStep, toolStep } from "../runtime/server/test-support/scripted-model.js";
import { toNodeListener } from "../runtime/server/to-node-listener.js";
import type { ToolPart } from "../runtime/session/agent-message.js";
import { launchChromium } from "../runtime/test-support/launch-chromium.js";
import { reactFixture } from "../runtime/test-support/react-fixture-plugin.js";
import { serveFixture } from "../runtime/test-support/serve-fixture.js";
import { PAGE_READY_MS } from "../runtime/test-support/page-ready.js";

const fixture = fileURLToPath(new URL("./test-fixtures/cloud-chat-page/", import.meta.url));
const results = fileURLToPath(new URL("../test-results/", import.meta.url));

// The rate limit's counter: the POSTs whose number (from 1) is in `refuse`
// count past the limit of one, so the real checkRateLimit answers 429.
let counted = 0;
const refuse = new Set<number>();
const store: CounterStore = { increment: async () => (refuse.has(++counted) ? 2 : 1) };

let handler: (request: Request) => Promise<Response> = async () => new Response("not set", { status: 500 });
const posts: ChatRequestBody[] = [];
const statuses: number[] = [];
const chatRoute: Plugin = {
  name: "chat-route",
  configureServer(server) {
    server.middlewares.use(
      "/api/chat",
      toNodeListener(async (request) => {
        // Record what the browser sent and what it got, around the real handler.
        if (request.method === "POST") posts.push((await request.clone().json()) as ChatRequestBody);
        const response = await handler(request);
        if (request.method === "POST") statuses.push(response.status);
        return response;
      }),
    );
  },
};

/** The real handler with this mock model, a real rate limit on the test's counter, and a label. */
const useModel = (model: MockLanguageModelV3) => {
  handler = createChatHandler({ model, maxSteps: 8, label: "Test model (cloud)", rateLimit: { requests: 1, windowMs: 60_000 }, store });
};

describe("<AgentChat> in headless Chromium on the cloud adapter against the real chat handler", () => {
  let browser: Browser;
  let server: Awaited<ReturnType<typeof serveFixture>>;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    mkdirSync(results, { recursive: true });
    useModel(scriptedModel([textStep("unused")]));
    [browser, server] = await Promise.all([launchChromium({ webmcp: true }), serveFixture(fixture, [reactFixture, chatRoute])]);
    page = await browser.newPage({ viewport: { width: 1100, height: 700 } });
    page.on("pageerror", (error) => errors.push(error.message));
    page.on("console", (message) => {
      // A refused POST is logged by the browser as a failed resource load; anything else fails the run.
      const text = message.text();
      if (message.type() !== "error" || message.location().url.endsWith("/favicon.ico")) return;
      if (text.includes("status of 429")) return;
      errors.push(text);
    });
    await page.goto(server.url);
    await page.waitForSelector("body[data-ready=true]", { timeout: PAGE_READY_MS });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  // Playwright's CSS selectors pierce open shadow roots.
  const chat = () => page.locator("#chat [data-web-agents-ui]");
  const send = async (text: string) => {
    await chat().locator("textarea").fill(text);
    await chat().locator("textarea").press("Enter");
  };
  const calls = () => page.evaluate(() => (window as any).harness.calls as string[]);
  const cart = () => page.evaluate(() => (window as any).harness.cart() as string[]);
  const lastToolPart = (post: ChatRequestBody) =>
    post.messages.flatMap((message) => message.parts.filter((part): part is ToolPart => part.type === "tool")).at(-1);

  it("sends a message: the model's tool call runs on the page, and the answer shows", async () => {
    const model = scriptedModel([toolStep("add_to_cart", { sku: "socks" }, "call-1"), textStep("Added wool socks to your cart.")]);
    useModel(model);
    // No download card for the cloud: the composer is ready once the handler answers the GET.
    await chat().locator("textarea:not([disabled])").waitFor({ timeout: 15_000 });
    expect(await chat().locator(".card").count()).toBe(0);

    await send("Add the socks");
    await chat().getByText("Added wool socks to your cart.").waitFor({ timeout: 15_000 });
    await chat().locator("button", { hasText: "Send" }).waitFor();
    expect(await chat().locator('.tool[data-tool="add_to_cart"]').getAttribute("data-state")).toBe("done");
    expect(await calls()).toEqual(["add_to_cart:socks"]);
    expect(await page.textContent("#badge")).toBe("1");
    // Two steps, two POSTs: the second carried the tool's result from the page.
    expect(statuses).toEqual([200, 200]);
    expect(posts[0]!.tools.map((tool) => tool.name).sort()).toEqual(["add_to_cart", "get_cart"]);
    expect(lastToolPart(posts[1]!)).toMatchObject({ name: "add_to_cart", state: "done", input: { sku: "socks" } });
    expect(model.doStreamCalls).toHaveLength(2);
    await page.screenshot({ path: `${results}agent-chat-cloud.png` });
  });

  it("Try again after a 429 shows the rate-limit explanation, then resumes without repeating the finished tool call", async () => {
    const model = scriptedModel([toolStep("add_to_cart", { sku: "hat" }, "call-2"), textStep("Added the hat as well.")]);
    useModel(model);
    posts.length = 0;
    statuses.length = 0;
    // The turn's second POST (the step after the tool ran) is over the limit.
    refuse.add(counted + 2);

    await send("Add a hat");
    const alert = chat().locator('.error[role="alert"]');
    await alert.waitFor({ timeout: 15_000 });
    expect(await alert.getAttribute("data-code")).toBe("rate_limited");
    const explained = (await alert.textContent()) ?? "";
    expect(explained).toContain("That's a lot of messages for now. Wait a little, then try again.");
    expect(explained).toMatch(/You're sending messages too quickly\. Wait (a second|\d+ seconds) and try again\./);
    expect(statuses).toEqual([200, 429]);
    // The tool call finished before the refusal, and shows as done.
    expect(await chat().locator('.tool[data-tool="add_to_cart"]').last().getAttribute("data-state")).toBe("done");
    expect(await cart()).toEqual(["socks", "hat"]);
    expect(model.doStreamCalls).toHaveLength(1);
    await page.screenshot({ path: `${results}agent-chat-cloud-rate-limited.png` });

    await alert.locator("button", { hasText: "Try again" }).click();
    await chat().getByText("Added the hat as well.").waitFor({ timeout: 15_000 });
    await chat().locator("button", { hasText: "Send" }).waitFor();
    expect(await alert.count()).toBe(0);
    // Resumed after the finished call: the page ran add_to_cart once for the hat,
    // and the retried POST carried its result instead of asking the model again.
    expect(await calls()).toEqual(["add_to_cart:socks", "add_to_cart:hat"]);
    expect(await cart()).toEqual(["socks", "hat"]);
    expect(await page.textContent("#badge")).toBe("2");
    expect(statuses).toEqual([200, 429, 200]);
    expect(lastToolPart(posts[2]!)).toMatchObject({ name: "add_to_cart", state: "done", input: { sku: "hat" } });
    expect(model.doStreamCalls).toHaveLength(2);
    expect(await chat().locator('.tool[data-tool="add_to_cart"]').count()).toBe(2);
    await page.screenshot({ path: `${results}agent-chat-cloud-resumed.png` });
  });

  it("restores the conversation after a reload, with nothing sent again", async () => {
    const before = posts.length;
    await page.reload();
    await page.waitForSelector("body[data-ready=true]", { timeout: PAGE_READY_MS });
    await chat().getByText("Added the hat as well.").waitFor({ timeout: 10_000 });
    expect(await chat().locator(".log").textContent()).toContain("Added wool socks to your cart.");
    expect(await chat().locator('.log > .message[data-role="user"]').count()).toBe(2);
    expect(await chat().locator('.error[role="alert"]').count()).toBe(0);
    expect(posts.length).toBe(before);
    expect(errors).toEqual([]);
  });
});
