import { describe, expect, it } from "vitest";
import { defaultWasmThreads, wasmThreadsFor } from "./wasm-threads.js";

describe("defaultWasmThreads", () => {
  it("is min(4, cores - 1), at least 1, on a cross-origin isolated page", () => {
    expect([1, 2, 3, 4, 5, 8, 16].map((cores) => defaultWasmThreads({ cores, crossOriginIsolated: true }))).toEqual([1, 1, 2, 3, 4, 4, 4]);
    expect(defaultWasmThreads({ cores: 0, crossOriginIsolated: true })).toBe(1);
  });

  it("is 1 where the page is not isolated, whatever the cores", () => {
    expect([1, 2, 8, 16].map((cores) => defaultWasmThreads({ cores, crossOriginIsolated: false }))).toEqual([1, 1, 1, 1]);
  });
});

describe("wasmThreadsFor", () => {
  it("takes the request where isolated, as a whole number of at least 1 (default 1)", () => {
    expect(wasmThreadsFor(3, true)).toBe(3);
    expect(wasmThreadsFor(2.7, true)).toBe(2);
    expect(wasmThreadsFor(0, true)).toBe(1);
    expect(wasmThreadsFor(Number.NaN, true)).toBe(1);
    expect(wasmThreadsFor(undefined, true)).toBe(1);
  });

  it("is 1 where the worker is not isolated", () => {
    expect(wasmThreadsFor(4, false)).toBe(1);
  });
});
