import { describe, expect, it } from "vitest";
import { toByteLevel } from "../vocabulary/byte-level-alphabet.js";
import { TokenSpeller } from "./token-speller.js";

const TEXTS = ["a", "b", "c", "d", "e", "ab", "abc", "cde", " ", "é", "", "\n"];
const speller = TokenSpeller.for(TEXTS.map((text) => (text ? toByteLevel(text) : "")));
const spelt = (text: string) => speller.spell(text)?.map((id) => TEXTS[id]);

describe("TokenSpeller (a toy byte-level vocabulary)", () => {
  it("spells a text in the fewest tokens, where the longest token first would take one more", () => {
    // Longest first: "abc" "d" "e" (3). Fewest: "ab" "cde" (2).
    expect(spelt("abcde")).toEqual(["ab", "cde"]);
    expect(spelt("abc")).toEqual(["abc"]);
    expect(spelt("")).toEqual([]);
  });

  it("spells bytes outside the ASCII range through their byte-level characters, and says undefined for a byte it has no token for", () => {
    expect(spelt("é\na")).toEqual(["é", "\n", "a"]);
    expect(speller.spell("z")).toBeUndefined();
  });

  it("reads back the UTF-8 bytes a token writes (none for a special token)", () => {
    expect([...speller.bytesOf(TEXTS.indexOf("é"))]).toEqual([0xc3, 0xa9]);
    expect(speller.bytesOf(TEXTS.indexOf(""))).toHaveLength(0);
  });
});
