import { describe, expect, it } from "vitest";
import { QWEN3_CATALOG } from "../../../models/catalog.js";
import { resolveVariant, type ResolvedVariant } from "../../../models/resolve-variant.js";
import { initialLocalAdapterState, localAdapterModels, localAdapterReducer, localAdapterStatus, type LocalAdapterEvent, type LocalAdapterState } from "./local-adapter-reducer.js";

const capabilities = { webgpu: false, fallbackAdapter: false, shaderF16: false, cores: 4, crossOriginIsolated: false };
const small = resolveVariant(QWEN3_CATALOG[0]!, capabilities)!;
const runnable = new Map<string, ResolvedVariant>([[small.entry.id, small]]);
const probed = (cached: boolean, removed?: string): LocalAdapterEvent => ({
  type: "probed",
  capabilities,
  threads: 1,
  runnable,
  cached: new Map([[small.entry.id, cached]]),
  removedNotes: new Map(removed ? [[small.entry.id, removed]] : []),
});
const run = (events: LocalAdapterEvent[], autoLoad = true): LocalAdapterState =>
  events.reduce((state, event) => localAdapterReducer(state, event, autoLoad), initialLocalAdapterState(undefined));

describe("localAdapterReducer (pure)", () => {
  it("reads as loading until the probe, then picks the recommended model and shows its download card", () => {
    expect(localAdapterStatus(run([]))).toEqual({ state: "loading" });
    const state = run([probed(false)]);
    expect(state.selectedId).toBe("qwen3-0.6b");
    expect(localAdapterStatus(state)).toEqual({ state: "needs-download", bytes: small.variant.bytes, note: small.note });
  });

  it("is unavailable, with the sentence naming what the site must allow, where the worker's Content-Security-Policy refuses WebAssembly", () => {
    const blocked = { ...(probed(true) as Extract<LocalAdapterEvent, { type: "probed" }>), capabilities: { ...capabilities, blockedByPolicy: { directive: "script-src", allow: "'wasm-unsafe-eval'" } } };
    const status = localAdapterStatus(run([blocked]));
    expect(status.state).toBe("unavailable");
    expect(status.state === "unavailable" && status.reason).toContain("must add 'wasm-unsafe-eval' to script-src");
  });

  it("is unavailable with the sentence when the page's policy refused the engine worker", () => {
    const status = localAdapterStatus(run([{ type: "probe-blocked", reason: "This site's Content-Security-Policy blocks a file the on-device model needs." }]));
    expect(status).toEqual({ state: "unavailable", reason: "This site's Content-Security-Policy blocks a file the on-device model needs." });
  });

  it("a worker that stopped on its own takes a ready model with it: loading again with autoLoad, the card without; nothing loaded, nothing changes", () => {
    const ready: LocalAdapterEvent[] = [probed(true), { type: "load-started", id: small.entry.id }, { type: "loaded", key: small.key }];
    expect(localAdapterStatus(run(ready))).toEqual({ state: "ready" });
    const stopped = run([...ready, { type: "unloaded" }]);
    expect(stopped.loadedKey).toBeUndefined();
    expect(localAdapterStatus(stopped)).toEqual({ state: "loading", progress: 0 });
    expect(localAdapterStatus(run([...ready, { type: "unloaded" }], false)).state).toBe("needs-download");
    const before = run([probed(false)]);
    expect(localAdapterReducer(before, { type: "unloaded" }, true)).toBe(before);
  });

  it("goes straight to loading for a cached model with autoLoad, and to the download card without", () => {
    expect(localAdapterStatus(run([probed(true)]))).toEqual({ state: "loading", progress: 0 });
    expect(localAdapterStatus(run([probed(true)], false)).state).toBe("needs-download");
  });

  it("downloads with progress that never goes back, loads, and is ready", () => {
    const states: string[] = [];
    let state = run([probed(false)]);
    for (const event of [
      { type: "download-started", id: "qwen3-0.6b" },
      { type: "download-progress", progress: 0.5 },
      { type: "download-progress", progress: 0.25 },
      { type: "load-started", id: "qwen3-0.6b" },
      { type: "load-progress", progress: 2 },
      { type: "loaded", key: small.key },
    ] satisfies LocalAdapterEvent[]) {
      state = localAdapterReducer(state, event, true);
      states.push(JSON.stringify(localAdapterStatus(state)));
    }
    expect(states).toEqual([
      '{"state":"downloading","progress":0}',
      '{"state":"downloading","progress":0.5}',
      '{"state":"downloading","progress":0.5}',
      '{"state":"loading","progress":0}',
      '{"state":"loading","progress":1}',
      '{"state":"ready"}',
    ]);
    expect(localAdapterModels(state, QWEN3_CATALOG)[0]).toMatchObject({ cached: true, selected: true });
  });

  it("says why a saved copy went, until the next download starts", () => {
    let state = run([probed(true), { type: "copy-removed", id: "qwen3-0.6b", note: "The saved copy was damaged and has been removed." }]);
    expect(localAdapterStatus(state)).toMatchObject({ state: "needs-download", note: expect.stringMatching(/^The saved copy was damaged/) });
    state = localAdapterReducer(state, { type: "download-started", id: "qwen3-0.6b" }, true);
    state = localAdapterReducer(state, { type: "cancelled" }, true);
    expect(localAdapterStatus(state)).toEqual({ state: "needs-download", bytes: small.variant.bytes, note: small.note });
  });

  it("keeps the code of a failure, and an unchanged event returns the same state", () => {
    const failed = run([probed(false), { type: "failed", error: "It could not load.", code: "load_failed" }]);
    expect(localAdapterStatus(failed)).toEqual({ state: "error", error: "It could not load.", code: "load_failed" });
    expect(localAdapterReducer(failed, { type: "selected", id: "qwen3-0.6b" }, true)).toBe(failed);
    expect(localAdapterStatus(run([{ type: "probe-failed", error: "Could not start." }]))).toEqual({ state: "error", error: "Could not start.", code: "worker_died" });
  });
});

describe("localAdapterReducer: the load's last stretch", () => {
  it("says the model is starting once its files are read, and never goes back to a number", () => {
    let state = run([probed(true)]);
    state = localAdapterReducer(state, { type: "load-progress", progress: 0.5 }, true);
    state = localAdapterReducer(state, { type: "load-progress", progress: 0.9, stage: "starting" }, true);
    expect(localAdapterStatus(state)).toEqual({ state: "loading", progress: 0.9, stage: "starting" });
    expect(localAdapterReducer(state, { type: "load-progress", progress: 0.95 }, true)).toMatchObject({ phase: { stage: "starting", progress: 0.95 } });
    expect(localAdapterReducer(state, { type: "load-progress", progress: 0.9, stage: "starting" }, true)).toBe(state);
    expect(localAdapterStatus(localAdapterReducer(state, { type: "loaded", key: small.key }, true))).toEqual({ state: "ready" });
  });
});
