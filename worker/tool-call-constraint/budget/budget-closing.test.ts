import { describe, expect, it } from "vitest";
import { BudgetClosing } from "./budget-closing.js";
import { PlannerGrammar } from "./planner-grammar.js";
import { TokenSpeller } from "./token-speller.js";

// Byte-level token strings: "Ã" is the byte 0xC3 alone (the first half of "é"), "©" the byte 0xA9 (its second half).
const TOKENS = ["<", ">", "b", "c", "Ã", "©", "©b", "Ã©"];
const id = (token: string) => TOKENS.indexOf(token);
const speller = TokenSpeller.for(TOKENS);

describe("BudgetClosing (a toy byte-level vocabulary)", () => {
  it("mid-character in the band: a token that finishes the character and commits to more than the tokens left is refused", () => {
    // After "<é", ">" closes; after "<éb", six more letters come first.
    const budget = new BudgetClosing(PlannerGrammar.fromEbnf('root ::= "<" ("é" | "éb" "cccccc") ">"'), speller);
    budget.read(id("<"));
    budget.read(id("Ã"));
    // Three tokens left: the rest of the character, then ">" (2) fits; "©b" would need 8.
    const logits = new Float32Array(TOKENS.length).fill(-Infinity);
    logits[id("©")] = 0;
    logits[id("©b")] = 1;
    budget.apply(logits, 3);
    expect(TOKENS.filter((_, index) => logits[index] !== -Infinity)).toEqual(["©"]);
    expect(budget.lost).toBe(false);
  });

  it("fits: a token written ahead is allowed only while the rest still closes in the tokens left after it", () => {
    const budget = new BudgetClosing(PlannerGrammar.fromEbnf('root ::= "<" "b"? "cc" ">"'), speller);
    budget.read(id("<"));
    // After "b": "cc>" takes 3 tokens.
    expect(budget.fits(id("b"), 3)).toBe(true);
    expect(budget.fits(id("b"), 2)).toBe(false);
  });
});
