import { describe, expect, it } from "vitest";
import { checkSchemaShape } from "./check-schema-shape.js";

const check = (schema: unknown) => () => checkSchemaShape(schema, "defineWebTool(add_to_cart)");

describe("checkSchemaShape", () => {
  it("accepts the schemas tools use: nested objects, arrays, enums, combinators, refs, booleans", () => {
    expect(check({ type: "object", properties: { sku: { type: "string", enum: ["a"], pattern: "^[a-z]+$" }, qty: { type: ["integer", "null"], minimum: 1 }, tags: { type: "array", items: { type: "string" }, maxItems: 3 }, any: true, pick: { anyOf: [{ const: 1 }, { $ref: "#/$defs/x" }] } }, required: ["sku"], additionalProperties: false, $defs: { x: { type: "object" } } })).not.toThrow();
    expect(check({ type: "object", "x-vendor": { anything: 1 } })).not.toThrow();
  });

  it.each([
    [{ type: "object", properties: { qty: { type: "integr" } } }, /inputSchema\.properties\.qty\.type must be one of string, number, integer.*"integr"/],
    [{ type: "object", required: "sku" }, /inputSchema\.required must be a list of property names/],
    [{ type: "object", properties: [] }, /inputSchema\.properties must be an object of schemas/],
    [{ type: "object", properties: { a: { type: "array", items: 3 } } }, /inputSchema\.properties\.a\.items must be a schema/],
    [{ type: "object", properties: { a: { enum: "x" } } }, /inputSchema\.properties\.a\.enum must be a list/],
    [{ type: "object", properties: { a: { type: "string", pattern: "(" } } }, /inputSchema\.properties\.a\.pattern is not a valid regular expression/],
    [{ type: "object", properties: { a: { type: "string", maxLength: -1 } } }, /maxLength must be a whole number/],
    [{ type: "object", properties: { a: { anyOf: [] } } }, /anyOf must be a non-empty list/],
  ])("refuses %j with a TypeError naming the path", (schema, message) => {
    expect(check(schema)).toThrow(TypeError);
    expect(check(schema)).toThrow(message);
    expect(check(schema)).toThrow(/^defineWebTool\(add_to_cart\): /);
  });

  it("walks 100,000 levels without recursion and refuses past 64", () => {
    let deep: Record<string, unknown> = { type: "string" };
    for (let i = 0; i < 100_000; i += 1) deep = { type: "object", properties: { a: deep } };
    expect(check(deep)).toThrow(/nests deeper than 64 levels/);
  });
});
