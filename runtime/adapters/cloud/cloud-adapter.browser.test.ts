// The cloud path end to end: the real createCloudAdapter in headless
// Chromium, a real session and page tools, against the real
// createChatHandler over HTTP on 127.0.0.1. Only the model is a double: the
// AI SDK's MockLanguageModelV3 (no provider can be reached here).
import { fileURLToPath } from "node:url";
import type { Browser, Page } from "playwright-core";
import type { Plugin } from "vite";
import type { MockLanguageModelV3 } from "ai/test";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createChatHandler } from "../../server/create-chat-handler.js";
import type { ChatRequestBody } from "../../server/chat-wire.js";
import { scriptedModel, textStep, toolStep } from "../../server/test-support/scripted-model.js";
import { toNodeListener } from "../../server/to-node-listener.js";
import type { AgentMessage, ToolPart } from "../../session/agent-message.js";
import { launchChromium } from "../../test-support/launch-chromium.js";
import { serveFixture } from "../../test-support/serve-fixture.js";
import { shopper } from "./test-fixtures/cloud-page/agents.js";
import { PAGE_READY_MS } from "../../test-support/page-ready.js";
import { waitForPageValue } from "../../test-support/wait-for-page-value.js";

const fixture = fileURLToPath(new URL("./test-fixtures/cloud-page/", import.meta.url));

type Snapshot = { messages: AgentMessage[]; status: string; error?: { message: string; code?: string } };
const toolParts = (messages: AgentMessage[]): ToolPart[] =>
  messages.flatMap((message) => message.parts.filter((part): part is ToolPart => part.type === "tool"));
const textOf = (message: AgentMessage | undefined) =>
  message?.parts.map((part) => (part.type === "text" ? part.text : "")).join("") ?? "";

let handler: (request: Request) => Promise<Response> = async () => new Response("not set", { status: 500 });
const posts: ChatRequestBody[] = [];
const chatRoute: Plugin = {
  name: "chat-route",
  configureServer(server) {
    server.middlewares.use(
      "/api/chat",
      toNodeListener(async (request) => {
        // Record what the browser sent, then let the real handler read it.
        if (request.method === "POST") posts.push((await request.clone().json()) as ChatRequestBody);
        return handler(request);
      }),
    );
  },
};

describe("the cloud adapter in headless Chromium against the real chat handler", () => {
  let browser: Browser;
  let server: Awaited<ReturnType<typeof serveFixture>>;
  let page: Page;

  beforeAll(async () => {
    [browser, server] = await Promise.all([launchChromium(), serveFixture(fixture, [chatRoute])]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const open = async (model: MockLanguageModelV3, maxSteps = 4) => {
    handler = createChatHandler({ model, agents: [shopper], maxSteps, label: "Test model (cloud)" });
    posts.length = 0;
    page = await browser.newPage();
    await page.goto(server.url);
    await page.waitForSelector("body[data-ready=true]", { timeout: PAGE_READY_MS });
  };
  const snapshot = () => page.evaluate(() => (window as any).harness.snapshot() as Snapshot);
  const waitFor = (check: (snapshot: Snapshot) => boolean, what: string) =>
    waitForPageValue(page, () => (window as any).harness.snapshot() as Snapshot, check, what, 15_000);

  it("runs a multi-step turn: page tools one at a time, a parked confirmation, then the answer", async () => {
    const model = scriptedModel([
      toolStep("get_cart", {}, "call-1"),
      toolStep("add_to_cart", { sku: "socks" }, "call-2"),
      toolStep("place_order", {}, "call-3"),
      textStep("Ordered your socks."),
    ]);
    await open(model);
    await page.evaluate(() => (window as any).harness.start(false));
    await page.waitForFunction(() => (window as any).harness.status()?.state === "ready");
    expect(await page.evaluate(() => (window as any).harness.label())).toBe("Test model (cloud)");
    await page.evaluate(() => (window as any).harness.send("Buy socks"));

    const parked = await waitFor(
      (current) => toolParts(current.messages).some((part) => part.state === "awaiting-confirmation"),
      "place_order to park",
    );
    expect(toolParts(parked.messages).map((part) => [part.name, part.state])).toEqual([
      ["get_cart", "done"],
      ["add_to_cart", "done"],
      ["place_order", "awaiting-confirmation"],
    ]);
    expect(await page.textContent("#badge")).toBe("1");
    await page.click("#place-order");
    const done = await waitFor((current) => current.status === "idle", "the answer");
    expect(textOf(done.messages.at(-1))).toBe("Ordered your socks.");
    expect(await page.evaluate(() => (window as any).harness.calls)).toEqual(["get_cart", "add_to_cart", "place_order"]);

    // Four steps, four POSTs; each carried the page's tools read fresh, and
    // the last one the place_order result the person confirmed.
    expect(posts).toHaveLength(4);
    expect(posts[0]!.tools.map((tool) => tool.name).sort()).toEqual(["add_to_cart", "get_cart", "place_order", "track_order"]);
    const lastCall = toolParts(posts[3]!.messages).at(-1)!;
    expect(lastCall).toMatchObject({ name: "place_order", state: "done" });
    expect(model.doStreamCalls).toHaveLength(4);
  });

  it("ends a turn that reaches maxSteps with a summary step the server answers without tools", async () => {
    // The summary step keeps the tools declared (providers refuse past tool
    // calls without them) but forbids calling one.
    let calls = 0;
    const model = scriptedModel((call) =>
      call.toolChoice?.type === "none" ? textStep("Here is what I found.") : toolStep("get_cart", {}, `call-${++calls}`),
    );
    // The page's adapter has maxSteps 4: the handler's must be the same.
    await open(model, 4);
    await page.evaluate(() => (window as any).harness.start(false));
    await page.evaluate(() => (window as any).harness.send("Look around"));
    const done = await waitFor((current) => current.status === "idle", "the summary");
    expect(textOf(done.messages.at(-1))).toBe("Here is what I found.");
    expect(model.doStreamCalls.map((call) => call.toolChoice?.type ?? "auto")).toEqual(["auto", "auto", "auto", "auto", "none"]);
    expect(toolParts(done.messages)).toHaveLength(4);
    expect(posts).toHaveLength(5);
  });

  it("runs a sub-agent through delegate_to_orders: only ids travel, instructions stay on the server", async () => {
    const model = scriptedModel([
      toolStep("delegate_to_orders", { task: "Where is order 7?" }, "call-d"),
      toolStep("track_order", { id: 7 }, "call-t"),
      textStep("Order 7 arrives Friday."),
      textStep("Your order arrives Friday."),
    ]);
    await open(model);
    await page.evaluate(() => (window as any).harness.start(true));
    await page.evaluate(() => (window as any).harness.send("Where is my order 7?"));
    const done = await waitFor((current) => current.status === "idle", "the answer");

    expect(textOf(done.messages.at(-1))).toBe("Your order arrives Friday.");
    const delegate = toolParts(done.messages)[0]!;
    expect(delegate).toMatchObject({ name: "delegate_to_orders", state: "done" });
    expect(delegate.agent?.id).toBe("orders");
    expect(toolParts(delegate.agent!.messages)).toMatchObject([{ name: "track_order", state: "done" }]);

    expect(posts.map((post) => post.agent)).toEqual(["shopper", "orders", "orders", "shopper"]);
    // Nested runs are stripped before the parent's next step goes out.
    expect(toolParts(posts[3]!.messages)[0]!.agent).toBeUndefined();
    expect(JSON.stringify(posts)).not.toContain("track_order tells where");
    // The server applied each agent's instructions and tools.
    const system = (index: number) => JSON.stringify(model.doStreamCalls[index]!.prompt[0]);
    expect(system(1)).toContain("track_order tells where an order is.");
    expect(model.doStreamCalls[1]!.tools?.map((tool) => tool.name)).toEqual(["track_order"]);
    expect(model.doStreamCalls[0]!.tools?.map((tool) => tool.name)).toContain("delegate_to_orders");
  });
});
