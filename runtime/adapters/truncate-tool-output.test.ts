import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ToolOutput } from "../core/tool-output.js";
import { TRUNCATION_MARKER, truncateText, truncateToolOutput } from "./truncate-tool-output.js";

describe("truncateText", () => {
  it("keeps text within the limit and cuts longer text to exactly the limit, marked", () => {
    expect(truncateText("short", 10)).toBe("short");
    const cut = truncateText("x".repeat(50), 30);
    expect(cut).toHaveLength(30);
    expect(cut.endsWith(TRUNCATION_MARKER)).toBe(true);
  });

  it("never splits a surrogate pair", () => {
    const text = "😀".repeat(20);
    const cut = truncateText(text, 21 + TRUNCATION_MARKER.length);
    expect(cut.slice(0, -TRUNCATION_MARKER.length)).toBe("😀".repeat(10));
  });

  it("is idempotent and bounded (property)", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 200 }), fc.nat({ max: 120 }), (text, limit) => {
        const once = truncateText(text, limit);
        expect(once.length).toBeLessThanOrEqual(Math.max(limit, 0));
        expect(truncateText(once, limit)).toBe(once);
      }),
    );
  });
});

describe("truncateToolOutput", () => {
  it("returns the same object when nothing needs cutting", () => {
    const output: ToolOutput = { content: [{ type: "text", text: "ok" }], structuredContent: { ok: true } };
    expect(truncateToolOutput(output)).toBe(output);
  });

  it("shares the budget across text blocks and resource texts, keeps images, and drops a structuredContent past the limit", () => {
    const output: ToolOutput = {
      isError: false,
      content: [
        { type: "text", text: "a".repeat(30) },
        { type: "image", data: "AAAA", mimeType: "image/png" },
        { type: "resource", resource: { uri: "page://x", text: "b".repeat(30) } },
        { type: "text", text: "c".repeat(30) },
      ],
      structuredContent: { rows: "d".repeat(100) },
    };
    const cut = truncateToolOutput(output, 50);
    expect(cut).toEqual({
      isError: false,
      content: [
        { type: "text", text: "a".repeat(30) },
        { type: "image", data: "AAAA", mimeType: "image/png" },
        { type: "resource", resource: { uri: "page://x", text: "bbbbbb" + TRUNCATION_MARKER } },
      ],
    });
    expect(truncateToolOutput(cut, 50)).toBe(cut);
  });

  it("cuts to 4000 characters by default", () => {
    const cut = truncateToolOutput({ content: [{ type: "text", text: "x".repeat(9000) }] });
    expect(cut.content[0]!.text).toHaveLength(4000);
  });
});
