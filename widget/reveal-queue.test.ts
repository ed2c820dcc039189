import { afterEach, describe, expect, it, vi } from "vitest";
import { onRevealFrame, recordRevealStep, revealStepChars } from "./reveal-queue.js";

afterEach(() => {
  vi.useRealTimers();
});

describe("onRevealFrame", () => {
  it("runs one waiting callback per frame, first come first served, and skips a withdrawn one", () => {
    vi.useFakeTimers();
    const calls: string[] = [];
    onRevealFrame(() => calls.push("a"));
    const withdraw = onRevealFrame(() => calls.push("b"));
    onRevealFrame(() => calls.push("c"));
    withdraw();
    vi.advanceTimersByTime(16);
    expect(calls).toEqual(["a"]);
    vi.advanceTimersByTime(16);
    expect(calls).toEqual(["a", "c"]);
    vi.advanceTimersByTime(100);
    expect(calls).toEqual(["a", "c"]);
  });
});

describe("revealStepChars", () => {
  it("follows what renders in ~24 ms here, within 1,000 and 64,000 characters", () => {
    expect(revealStepChars()).toBe(4_000);
    recordRevealStep(100, 50); // too little to time
    expect(revealStepChars()).toBe(4_000);
    recordRevealStep(4_000, 12); // twice as fast as assumed
    expect(revealStepChars()).toBe(6_000);
    for (let step = 0; step < 20; step++) recordRevealStep(64_000, 1);
    expect(revealStepChars()).toBe(64_000);
    for (let step = 0; step < 20; step++) recordRevealStep(1_000, 500);
    expect(revealStepChars()).toBe(1_000);
  });
});
