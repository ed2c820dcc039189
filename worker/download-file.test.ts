import { describe, expect, it } from "vitest";
import { exactSize, parseContentRange } from "./download-file.js";

describe("download-file's pure parts", () => {
  it("enforces a size only when it is pinned: by a sha256, or declared exact", () => {
    expect(exactSize({ path: "a", bytes: 10, sha256: "ab" })).toBe(10);
    expect(exactSize({ path: "a", bytes: 10, exactBytes: true })).toBe(10);
    expect(exactSize({ path: "a", bytes: 10 })).toBeUndefined();
    expect(exactSize({ path: "a", sha256: "ab" })).toBeUndefined();
  });

  it("reads Content-Range", () => {
    expect(parseContentRange("bytes 8388608-11422653/11422654")).toEqual({ start: 8388608, end: 11422653, total: 11422654 });
    expect(parseContentRange("bytes 0-9/*")).toEqual({ start: 0, end: 9 });
    expect(parseContentRange(null)).toBeUndefined();
    expect(parseContentRange("items 0-9/10")).toBeUndefined();
  });
});
