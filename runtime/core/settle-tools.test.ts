// @vitest-environment happy-dom
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { getModelContext } from "./model-context.js";
import { AFTER_CALL_SETTLE, TOOLS_SETTLE, waitForToolsToSettle } from "./settle-tools.js";
import { installHappyDomWebMCP, resetWebMCP } from "./test-fixtures/happy-dom-webmcp.js";

beforeAll(installHappyDomWebMCP);
beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  resetWebMCP();
});

function track(promise: Promise<void>) {
  const state = { done: false };
  void promise.then(() => (state.done = true));
  return state;
}

const change = () => getModelContext().dispatchEvent(new Event("toolchange"));

describe("waitForToolsToSettle", () => {
  it("has the session's numbers", () => {
    expect(TOOLS_SETTLE).toEqual({ quietMs: 100, maxMs: 1500 });
    expect(AFTER_CALL_SETTLE).toEqual({ quietMs: 150, maxMs: 1500 });
  });

  it("resolves after quietMs without a toolchange", async () => {
    const settled = track(waitForToolsToSettle(TOOLS_SETTLE));
    await vi.advanceTimersByTimeAsync(99);
    expect(settled.done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(settled.done).toBe(true);
  });

  it("restarts the quiet period on every toolchange", async () => {
    const settled = track(waitForToolsToSettle(AFTER_CALL_SETTLE));
    await vi.advanceTimersByTimeAsync(140);
    change();
    await vi.advanceTimersByTimeAsync(140);
    expect(settled.done).toBe(false);
    await vi.advanceTimersByTimeAsync(10);
    expect(settled.done).toBe(true);
  });

  it("gives up after maxMs of constant change", async () => {
    const settled = track(waitForToolsToSettle(TOOLS_SETTLE));
    for (let elapsed = 0; elapsed < 1450; elapsed += 50) {
      await vi.advanceTimersByTimeAsync(50);
      change();
    }
    expect(settled.done).toBe(false);
    await vi.advanceTimersByTimeAsync(50);
    expect(settled.done).toBe(true);
  });

  it("resolves at once on abort, before or during", async () => {
    await waitForToolsToSettle({ ...TOOLS_SETTLE, signal: AbortSignal.abort() });
    const controller = new AbortController();
    const settled = track(waitForToolsToSettle({ ...TOOLS_SETTLE, signal: controller.signal }));
    controller.abort();
    await Promise.resolve();
    expect(settled.done).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("resolves at once without WebMCP", async () => {
    vi.stubGlobal("document", undefined);
    await waitForToolsToSettle(TOOLS_SETTLE);
  });
});
