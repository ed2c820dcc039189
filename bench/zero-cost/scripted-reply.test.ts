import { describe, expect, it } from "vitest";
import { PASSAGE_TOKEN_COUNT, scriptedTokens } from "./scripted-reply.js";

describe("scriptedTokens", () => {
  it("cuts the passage into word-sized tokens that join back into it, repeated to any length", () => {
    const one = scriptedTokens(PASSAGE_TOKEN_COUNT);
    expect(one.join("")).toMatch(/^Here is what I found[\s\S]*compare prices\.\n\n$/);
    expect(Math.max(...one.map((token) => token.length))).toBeLessThan(16);
    expect(scriptedTokens(PASSAGE_TOKEN_COUNT * 2 + 3).join("")).toBe(one.join("") + one.join("") + one.slice(0, 3).join(""));
  });
});
