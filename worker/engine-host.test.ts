import { describe, expect, it } from "vitest";
import { createEngineHost } from "./engine-host.js";
import type { ModelStore } from "./model-cache.js";
import type { ModelEngine } from "./model-engine.js";
import { testModelSource } from "./test-fixtures/test-model-source.js";

// The host's load against a store whose files the browser evicted: the real host, with an
// engine double (no model runs here) that holds a model or not.
function hostWith(held: boolean) {
  const calls = { cacheStatus: 0, load: 0 };
  const store: ModelStore = {
    cacheStatus: async () => (calls.cacheStatus++, { cached: false, removed: "evicted" }),
    download: async () => {},
    deleteModel: async () => {},
  };
  const engine: ModelEngine = {
    holds: () => held,
    load: async () => void calls.load++,
    generate: async (_request, onEvent) => onEvent({ type: "finish", reason: "stop" }),
  };
  return { host: createEngineHost({ engines: { transformers: () => engine }, store }), calls };
}

describe("createEngineHost: load and the store", () => {
  it("checks the store before the engine reads a model it does not hold: evicted files are not_cached, and nothing is read", async () => {
    const { host, calls } = hostWith(false);
    await expect(host.load(testModelSource("tiny"), () => {})).rejects.toMatchObject({ code: "not_cached", reason: "evicted" });
    expect(calls).toEqual({ cacheStatus: 1, load: 0 });
  });

  it("loads a model the engine holds without checking the store: it reads no file", async () => {
    const { host, calls } = hostWith(true);
    await host.load(testModelSource("tiny"), () => {});
    expect(calls).toEqual({ cacheStatus: 0, load: 1 });
  });
});
