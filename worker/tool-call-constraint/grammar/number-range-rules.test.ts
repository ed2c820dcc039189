import { beforeAll, describe, expect, it } from "vitest";
import { jsonSchemaValidator } from "../../../bench/constraint/json-schema-validator.js";
import { seededRandom } from "../../../bench/constraint/random-json-schema.js";
import { loadXGrammar, type XGrammar } from "../load-xgrammar.js";
import { nextUp, numberRange, numberRangeRules } from "./number-range-rules.js";

/** A decimal string (no exponent) as a scaled BigInt, for exact comparison with a range's bounds. */
function scaledDecimal(text: string, scale: number): bigint {
  const negative = text.startsWith("-");
  const [whole, fraction = ""] = (negative ? text.slice(1) : text).split(".");
  const digits = BigInt(whole + fraction.padEnd(scale, "0").slice(0, scale));
  // Digits past the scale only matter for inclusion at the scale's own precision: compare the truncated value, with a flag.
  const rest = fraction.length > scale && /[1-9]/.test(fraction.slice(scale));
  const value = negative ? -digits : digits;
  return rest ? value * 10n + (negative ? -1n : 1n) : value * 10n;
}

describe("numberRangeRules: exact decimal ranges in EBNF (xgrammar's own range rule is loose)", () => {
  let xgrammar: XGrammar;
  beforeAll(async () => {
    xgrammar = await loadXGrammar();
  });

  const schemas: Record<string, unknown>[] = [
    { minimum: 13, maximum: 120 },
    { minimum: 4 },
    { maximum: -3 },
    { exclusiveMinimum: 0, exclusiveMaximum: 100 },
    { minimum: 0.01 },
    { minimum: 0.5, maximum: 99.5 },
    { exclusiveMinimum: 0 },
    { minimum: -2.5, exclusiveMaximum: -1 },
    { exclusiveMinimum: 0, exclusiveMaximum: 1 },
    { minimum: 1e21 },
    { minimum: 1.5e-7, maximum: 3 },
  ];

  it.each(schemas)("%j: accepts exactly the decimals in range (integer and number), and nothing ajv refuses", async (schema) => {
    const random = seededRandom(JSON.stringify(schema).length);
    const ajv = jsonSchemaValidator();
    for (const integer of [true, false]) {
      const rules = new Map<string, string>();
      const range = numberRange(schema, integer);
      const start = numberRangeRules(rules, "n_", range);
      // No integer lies strictly between 0 and 1.
      if (integer && range.low !== undefined && range.high !== undefined && range.low > range.high) {
        expect(start).toBeUndefined();
        continue;
      }
      expect(start).toBeDefined();
      const grammar = await xgrammar.Grammar.fromEBNF([`root ::= ${start}`, ...[...rules].map(([name, body]) => `${name} ::= ${body}`)].join("\n"));
      const samples = ["", "-", ".", "0", "-0", "00", "01", "0.", ".5", "0G01", "1e5", "+1"];
      for (let index = 0; index < 300; index++) {
        const magnitude = Math.floor(random() * 10 ** Math.floor(random() * 5));
        const fraction = integer || random() < 0.4 ? "" : `.${String(Math.floor(random() * 10 ** (1 + Math.floor(random() * 4))))}`;
        samples.push(`${random() < 0.3 ? "-" : ""}${magnitude}${fraction}`);
      }
      for (const bound of ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"]) {
        const value = schema[bound];
        if (typeof value === "number") samples.push(String(value), String(nextUp(value)), String(value + 1), String(value - 1));
      }
      for (const text of samples) {
        const wellFormed = /^-?(0|[1-9]\d*)(\.\d+)?$/.test(text) && !/^-0(\.0+)?$/.test(text) && (!integer || !text.includes("."));
        const scaled = wellFormed ? scaledDecimal(text, range.scale) : 0n;
        const inRange = wellFormed && (range.low === undefined || scaled >= range.low * 10n) && (range.high === undefined || scaled <= range.high * 10n);
        const accepted = await xgrammar.Testings.isGrammarAcceptString(grammar, text);
        expect(accepted, `${integer ? "integer" : "number"} ${text}`).toBe(inRange);
        if (accepted) expect(ajv.valid({ type: integer ? "integer" : "number", ...schema }, JSON.parse(text)), text).toBe(true);
      }
      grammar.dispose();
    }
  }, 60_000);

  it("an exclusive bound moves inside by at most 10^-20, and what is written never parses onto it", () => {
    const range = numberRange({ exclusiveMinimum: 0 }, false);
    expect(range.low).toBe(1n);
    expect(range.scale).toBe(20);
    expect(numberRange({ exclusiveMinimum: 5, minimum: 6 }, true).low).toBe(6n);
    expect(numberRange({ exclusiveMaximum: 5 }, true).high).toBe(4n);
    expect(numberRangeRules(new Map(), "n_", numberRange({ minimum: 3, maximum: 2 }, true))).toBeUndefined();
  });
});
