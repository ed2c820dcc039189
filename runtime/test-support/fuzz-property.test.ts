/** The fuzz harness itself: a slow case and a failing case are failures; a fast one passes with a report. */
import fc from "fast-check";
import { afterEach, describe, expect, it, vi } from "vitest";
import { cutPoints, fuzzProperty, fuzzRuns } from "./fuzz-property.js";

afterEach(() => {
  vi.unstubAllEnvs();
});

const busy = (ms: number) => {
  const end = performance.now() + ms;
  while (performance.now() < end);
};

describe("fuzzProperty", () => {
  it("fails a case that takes over 100 ms on its own (500 ms of busy work: the limit grows only by how much slower this machine runs a fixed workload)", () => {
    vi.spyOn(console, "log").mockImplementation(() => {});
    let failure: unknown;
    try {
      fuzzProperty("slow", fc.constant(1), () => busy(500), 1);
    } catch (error) {
      failure = error;
    }
    expect(failure).toBeInstanceOf(Error);
    // fast-check wraps the case's error: it is the cause.
    expect(String((failure as Error).cause)).toMatch(/a case took \d+\.\d ms on its own \(the best of 3\), over the 100 ms limit/);
  });

  it("fails a case whose check throws, and reports a passing run's count and worst time", () => {
    vi.spyOn(console, "log").mockImplementation(() => {});
    expect(() => fuzzProperty("throws", fc.nat(), (value) => expect(value).toBeLessThan(0), 5)).toThrow(/Property failed/);
    const report = fuzzProperty("fast", fc.nat(), () => busy(1), 20);
    expect(report).toMatchObject({ target: "fast", cases: 20 });
    expect(report.worstMs).toBeGreaterThanOrEqual(1);
  });

  it("takes its case count from FUZZ_RUNS, 10,000 by default, and refuses a bad one", () => {
    vi.stubEnv("FUZZ_RUNS", "");
    expect(fuzzRuns()).toBe(10_000);
    vi.stubEnv("FUZZ_RUNS", "250");
    expect(fuzzRuns()).toBe(250);
    vi.stubEnv("FUZZ_RUNS", "1e3x");
    expect(() => fuzzRuns()).toThrow(/FUZZ_RUNS must be a positive integer/);
  });

  it("cuts at any offsets, in order, covering the whole input", () => {
    expect(cutPoints(5, [9, 2, 2, 0])).toEqual([[0, 0], [0, 2], [2, 3], [3, 5]]);
  });
});
