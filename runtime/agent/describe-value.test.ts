import { describe, expect, it } from "vitest";
import { describeValue } from "./describe-value.js";

describe("describeValue", () => {
  it("quotes strings, writes numbers, names the rest by kind", () => {
    expect(describeValue("x")).toBe('"x"');
    expect(describeValue(0)).toBe("0");
    expect(describeValue(null)).toBe("null");
    expect(describeValue(undefined)).toBe("undefined");
    expect(describeValue([])).toBe("an array");
    expect(describeValue({})).toBe("an object");
    expect(describeValue(() => 1)).toBe("a function");
  });

  it("cuts long strings", () => {
    expect(describeValue("a".repeat(200))).toHaveLength(82);
  });
});
