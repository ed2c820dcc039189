import { fileURLToPath } from "node:url";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "../test-support/launch-chromium.js";
import { serveFixture } from "../test-support/serve-fixture.js";
import type { AgentMessage, ToolPart } from "./agent-message.js";
import type { AgentStreamPart } from "./agent-stream-part.js";
import { PAGE_READY_MS } from "../test-support/page-ready.js";
import { scriptClickEvents } from "../test-support/nothing-happened.js";
import { waitForPageValue } from "../test-support/wait-for-page-value.js";

const fixture = fileURLToPath(new URL("./test-fixtures/session-page/", import.meta.url));

type Snapshot = { messages: AgentMessage[]; status: string; error?: { message: string }; tools: { name: string }[] };

const toolParts = (snapshot: Snapshot) =>
  snapshot.messages.flatMap((message) => message.parts.filter((part): part is ToolPart => part.type === "tool"));

const shopping: AgentStreamPart[] = [
  { type: "message-start", messageId: "m1" },
  { type: "text-delta", messageId: "m1", delta: "Adding socks." },
  { type: "tool-call", messageId: "m1", id: "c1", name: "get_cart", input: {} },
  { type: "tool-call", messageId: "m1", id: "c2", name: "add_to_cart", input: { sku: "socks" } },
  { type: "tool-call", messageId: "m1", id: "c3", name: "add_to_cart", input: { sku: 42 } },
  { type: "tool-call", messageId: "m1", id: "c4", name: "no_such_tool", input: {} },
  { type: "tool-call", messageId: "m1", id: "c5", name: "place_order", input: {} },
  { type: "step-finish", step: 1 },
  { type: "text-delta", messageId: "m1", delta: " Ordered." },
  { type: "finish", reason: "stop" },
];

// The same session, twice: on Chromium's native document.modelContext, then
// on @mcp-b/webmcp-polyfill in a Chromium without the WebMCP flag.
describe.each([
  { webmcp: true, name: "native WebMCP" },
  { webmcp: false, name: "the WebMCP polyfill" },
])("a session in headless Chromium on $name", ({ webmcp }) => {
  let browser: Browser;
  let server: Awaited<ReturnType<typeof serveFixture>>;
  let page: Page;

  beforeAll(async () => {
    [browser, server] = await Promise.all([launchChromium({ webmcp }), serveFixture(fixture)]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const open = async () => {
    page = await browser.newPage();
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    await page.goto(server.url);
    await page.waitForSelector("body[data-ready=true]", { timeout: PAGE_READY_MS });
    return errors;
  };
  const snapshot = () => page.evaluate(() => (window as any).harness.snapshot() as Snapshot);
  const waitFor = (check: (snapshot: Snapshot) => boolean, what: string) =>
    waitForPageValue(page, () => (window as any).harness.snapshot() as Snapshot, check, what, 10_000);

  it("calls the page's tools one at a time and parks place_order until the person clicks", async () => {
    const errors = await open();
    expect(await page.evaluate(() => (window as any).harness.native)).toBe(webmcp);
    await page.evaluate((runs) => (window as any).harness.start(runs), [shopping]);
    await page.evaluate(() => (window as any).harness.send("  Buy socks  "));

    const parked = await waitFor(
      (current) => toolParts(current).some((part) => part.name === "place_order" && part.state === "awaiting-confirmation"),
      "place_order to park",
    );
    const parts = toolParts(parked);
    expect(parts.map((part) => [part.id, part.state])).toEqual([
      ["c1", "done"],
      ["c2", "done"],
      ["c3", "error"],
      ["c4", "error"],
      ["c5", "awaiting-confirmation"],
    ]);
    expect(parts[4]!.prompt).toBe("Click Place order to confirm.");
    expect(parts[2]!.error).toMatch(/^Error \[invalid_input\]/);
    expect(parts[3]!.error).toMatch(/^Error \[unknown_tool\]/);
    expect(await page.textContent("#badge")).toBe("1");
    expect(parked.status).toBe("streaming");
    // Both WebMCP implementations list tools by name, not registration order.
    expect(parked.tools.map((tool) => tool.name).sort()).toEqual(["add_to_cart", "get_cart", "place_order"]);

    // Nothing moves until a real click on the control: a script's click releases nothing.
    expect(await scriptClickEvents(page, "#place-order")).toEqual([]);
    expect(toolParts(await snapshot())[4]!.state).toBe("awaiting-confirmation");
    await page.click("#place-order");

    const done = await waitFor((current) => current.status === "idle", "the run to finish");
    const order = toolParts(done)[4]!;
    expect(order.state).toBe("done");
    expect(order.output?.structuredContent).toEqual({ orderId: 7 });
    expect(done.messages[0]).toMatchObject({ role: "user", parts: [{ type: "text", text: "Buy socks" }] });
    expect(done.messages[1]!.parts.at(-1)).toEqual({ type: "text", text: " Ordered." });

    const log = await page.evaluate(() => (window as any).harness.log);
    expect(log.calls).toEqual(["get_cart", "add_to_cart", "place_order"]);
    expect(log.maxActive).toBe(1);
    expect(errors).toEqual([]);
  });

  it("Stop while a call is parked cancels it, and Retry resumes without repeating a finished call", async () => {
    await open();
    const resume: AgentStreamPart[] = [
      { type: "message-start", messageId: "m2" },
      { type: "text-delta", messageId: "m2", delta: "Resumed." },
      { type: "finish", reason: "stop" },
    ];
    await page.evaluate((runs) => (window as any).harness.start(runs), [shopping, resume]);
    await page.evaluate(() => (window as any).harness.send("Buy socks"));
    await waitFor((current) => toolParts(current).some((part) => part.state === "awaiting-confirmation"), "the park");
    await page.evaluate(() => (window as any).harness.stop());

    const stopped = await snapshot();
    expect(stopped.status).toBe("idle");
    expect(toolParts(stopped).at(-1)).toMatchObject({ name: "place_order", state: "cancelled" });

    await page.evaluate(() => (window as any).harness.retry());
    const resumed = await waitFor((current) => current.status === "idle" && current.messages.length === 3, "the retry");
    const request = await page.evaluate(() => (window as any).harness.adapter.requests[1].messages as AgentMessage[]);
    // The retried request ends with the last finished call (the unknown tool's error): nothing before it runs again.
    const lastPart = request.at(-1)!.parts.at(-1) as ToolPart;
    expect(lastPart).toMatchObject({ id: "c4", state: "error" });
    expect(await page.evaluate(() => (window as any).harness.log.calls)).toEqual(["get_cart", "add_to_cart", "place_order"]);
    expect(resumed.messages[2]!.parts).toEqual([{ type: "text", text: "Resumed." }]);
  });
});
