// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { AgentAdapter } from "../../session/agent-adapter.js";
import { CLOUD_MESSAGES } from "./cloud-messages.js";
import { RECHECK_INTERVAL_MS } from "./create-availability-check.js";
import { createCloudAdapter } from "./create-cloud-adapter.js";
import { createFetchDouble, finish, json, say, step, type Reply } from "./test-fixtures/fetch-double.js";

/** Resolves at the adapter's next status (or label) change. */
const nextChange = (adapter: AgentAdapter) =>
  new Promise<void>((resolve) => {
    const unsubscribe = adapter.subscribe!(() => {
      unsubscribe();
      resolve();
    });
  });

const flushMicrotasks = async () => {
  for (let turn = 0; turn < 20; turn++) await Promise.resolve();
};

function browserAdapter(get: Reply[], label?: string) {
  const double = createFetchDouble({ get, posts: [step(say("hi"), finish())] });
  const adapter = createCloudAdapter({ fetch: double.fetch, ...(label && { label }) });
  return { adapter, double };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("createCloudAdapter status in a browser (against a fetch transport double)", () => {
  it("starts loading, GETs on the first status() call only, and turns ready with the endpoint's label", async () => {
    const { adapter, double } = browserAdapter([json(200, { enabled: true, model: "openai/gpt-5.5", label: "GPT-5.5 (cloud)" })]);
    expect(double.requests).toEqual([]);
    expect(adapter.label).toBe("Cloud");
    const changed = nextChange(adapter);
    expect(adapter.status!()).toEqual({ state: "loading" });
    expect(adapter.status!()).toEqual({ state: "loading" });
    expect(double.gets()).toHaveLength(1);
    expect(double.gets()[0]!.url).toBe("/api/chat");
    await changed;
    expect(adapter.status!()).toEqual({ state: "ready" });
    expect(adapter.label).toBe("GPT-5.5 (cloud)");
    vi.advanceTimersByTime(RECHECK_INTERVAL_MS * 3);
    adapter.status!();
    expect(double.gets()).toHaveLength(1);
  });

  it("names the model when the GET gives no label, and keeps a label option", async () => {
    const { adapter } = browserAdapter([json(200, { enabled: true, model: "openai/gpt-5.5" })]);
    const changed = nextChange(adapter);
    adapter.status!();
    await changed;
    expect(adapter.label).toBe("openai/gpt-5.5 (cloud)");

    const fixed = browserAdapter([json(200, { enabled: true, label: "GPT-5.5 (cloud)" })], "Shop assistant").adapter;
    const fixedChanged = nextChange(fixed);
    fixed.status!();
    await fixedChanged;
    expect(fixed.label).toBe("Shop assistant");
  });

  it.each([
    ["enabled: false", json(200, { enabled: false })],
    ["a non-JSON answer", new Response("<html></html>", { status: 200 })],
    ["a 500", json(500, { error: "internal", message: "x" })],
  ])("is unavailable, not configured, on %s", async (_name, reply) => {
    const { adapter } = browserAdapter([reply]);
    const changed = nextChange(adapter);
    adapter.status!();
    await changed;
    expect(adapter.status!()).toEqual({ state: "unavailable", reason: "Chat isn't configured on this site." });
  });

  it("is unavailable when the endpoint can't be reached, and checks again on a later status() call at most every 10 s", async () => {
    const { adapter, double } = browserAdapter([new TypeError("Failed to fetch"), new TypeError("Failed to fetch"), json(200, { enabled: true })]);
    let changed = nextChange(adapter);
    adapter.status!();
    await changed;
    expect(adapter.status!()).toEqual({ state: "unavailable", reason: CLOUD_MESSAGES.unreachable });
    expect(CLOUD_MESSAGES.unreachable).toBe("Couldn't reach the assistant. Check your connection and try again.");

    vi.advanceTimersByTime(RECHECK_INTERVAL_MS - 1);
    adapter.status!();
    expect(double.gets()).toHaveLength(1);
    vi.advanceTimersByTime(1);
    // No timer of its own: only a status() call checks again.
    expect(double.gets()).toHaveLength(1);
    const heard = vi.fn();
    const unsubscribe = adapter.subscribe!(heard);
    adapter.status!();
    expect(double.gets()).toHaveLength(2);
    // Still failing: the status stays as it was (no one is told), and the next check waits another 10 s.
    await flushMicrotasks();
    expect(adapter.status!()).toEqual({ state: "unavailable", reason: CLOUD_MESSAGES.unreachable });
    expect(heard).not.toHaveBeenCalled();
    unsubscribe();
    vi.advanceTimersByTime(5_000);
    adapter.status!();
    expect(double.gets()).toHaveLength(2);
    vi.advanceTimersByTime(5_000);
    changed = nextChange(adapter);
    adapter.status!();
    expect(double.gets()).toHaveLength(3);
    await changed;
    expect(adapter.status!()).toEqual({ state: "ready" });
  });

  it("checks again 10 s after a 503 chat_disabled turned it unavailable", async () => {
    const double = createFetchDouble({
      get: [json(200, { enabled: true }), json(200, { enabled: true })],
      posts: [json(503, { error: "chat_disabled", message: "x" })],
    });
    const adapter = createCloudAdapter({ fetch: double.fetch });
    let changed = nextChange(adapter);
    adapter.status!();
    await changed;
    const controller = new AbortController();
    const parts = [];
    for await (const part of adapter.run({ messages: [], tools: [], signal: controller.signal, callTool: async () => ({ content: [] }) })) parts.push(part);
    expect(parts).toEqual([{ type: "error", error: CLOUD_MESSAGES.notConfigured, code: "chat_disabled" }]);
    expect(adapter.status!()).toEqual({ state: "unavailable", reason: CLOUD_MESSAGES.notConfigured });
    expect(double.gets()).toHaveLength(1);
    vi.advanceTimersByTime(RECHECK_INTERVAL_MS);
    changed = nextChange(adapter);
    adapter.status!();
    await changed;
    expect(adapter.status!()).toEqual({ state: "ready" });
  });

  it("lets a run wait for the check in flight (it may set the session cookie), and sends the page's URL without its fragment", async () => {
    (window as unknown as { happyDOM: { setURL(url: string): void } }).happyDOM.setURL("https://shop.example/cart?step=2#access_token=secret");
    let answer!: (response: Response) => void;
    const double = createFetchDouble({
      get: [() => new Promise<Response>((resolve) => (answer = resolve))],
      posts: [step(say("hi"), finish())],
    });
    const adapter = createCloudAdapter({ fetch: double.fetch });
    adapter.status!();
    const controller = new AbortController();
    const run = (async () => {
      const parts = [];
      for await (const part of adapter.run({ messages: [], tools: [], signal: controller.signal, callTool: async () => ({ content: [] }) })) parts.push(part);
      return parts;
    })();
    await Promise.resolve();
    expect(double.posts()).toHaveLength(0);
    answer(json(200, { enabled: true }));
    const parts = await run;
    expect(parts.at(-1)).toEqual({ type: "finish", reason: "stop" });
    expect(double.requests.map((request) => request.method)).toEqual(["GET", "POST"]);
    expect(double.posts()[0]!.body.page).toEqual({ url: "https://shop.example/cart?step=2" });
  });

  it("stops telling a listener once it unsubscribes", async () => {
    const { adapter } = browserAdapter([json(200, { enabled: true })]);
    const heard = vi.fn();
    const unsubscribe = adapter.subscribe!(heard);
    unsubscribe();
    const changed = nextChange(adapter);
    adapter.status!();
    await changed;
    expect(heard).not.toHaveBeenCalled();
  });
});
