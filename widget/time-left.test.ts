import { describe, expect, it } from "vitest";
import { estimateSecondsLeft, formatTimeLeft } from "./time-left.js";

describe("estimateSecondsLeft", () => {
  it("extrapolates the average rate so far", () => {
    expect(estimateSecondsLeft({ at: 0, progress: 0 }, { at: 10_000, progress: 0.25 })).toBe(30);
  });
  it("says nothing before a second has passed or while nothing moved", () => {
    expect(estimateSecondsLeft({ at: 0, progress: 0 }, { at: 500, progress: 0.5 })).toBeUndefined();
    expect(estimateSecondsLeft({ at: 0, progress: 0.3 }, { at: 5_000, progress: 0.3 })).toBeUndefined();
  });
});

describe("formatTimeLeft", () => {
  it.each([
    [2, "about 5 s left"],
    [23, "about 25 s left"],
    [90, "about 2 min left"],
    [3_600, "about 1 h left"],
    [3_900, "about 1 h 5 min left"],
  ])("%d s reads %s", (seconds, text) => {
    expect(formatTimeLeft(seconds)).toBe(text);
  });
});
