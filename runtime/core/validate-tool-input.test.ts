import { describe, expect, it } from "vitest";
import { z } from "zod";
import { validateToolInput } from "./validate-tool-input.js";

const schema = Object.freeze({
  type: "object",
  properties: {
    id: { type: "string" },
    quantity: { type: "integer", minimum: 1 },
    tags: { type: "array", items: { type: "string" } },
  },
  required: ["id"],
  additionalProperties: false,
});

describe("validateToolInput", () => {
  it("passes valid input through and treats undefined as {}", async () => {
    await expect(validateToolInput("t", { id: "a", quantity: 2 }, schema)).resolves.toEqual({
      ok: true,
      value: { id: "a", quantity: 2 },
    });
    await expect(validateToolInput("t", undefined, { type: "object" })).resolves.toEqual({ ok: true, value: {} });
  });

  it("lists the precise JSON Schema errors with their paths", async () => {
    const check = await validateToolInput("add_to_cart", { quantity: 0, tags: [1], extra: true }, schema);
    expect(check.ok).toBe(false);
    expect(!check.ok && check.message).toBe(
      [
        "The input for add_to_cart does not match its schema:",
        '- input: Instance does not have required property "id".',
        "- quantity: 0 is less than 1.",
        '- tags.0: Instance type "number" is invalid. Expected "string".',
        '- input: Property "extra" does not match additional properties schema.',
        "Fix these and call add_to_cart again.",
      ].join("\n"),
    );
  });

  it("caps the list", async () => {
    const many = { type: "object", required: ["a", "b", "c", "d", "e", "f", "g"] };
    const check = await validateToolInput("t", {}, many);
    expect(!check.ok && check.message).toContain("- and 2 more");
  });

  it("rejects input that is not an object", async () => {
    for (const [input, words] of [["hi", "a string"], [[1], "an array"], [null, "null"]] as const) {
      const check = await validateToolInput("t", input, undefined);
      expect(!check.ok && check.message).toBe(`t takes a JSON object of named arguments, not ${words}. Call it again with an object.`);
    }
  });

  it("validates with a Standard Schema and hands over its output", async () => {
    const standard = z.object({ id: z.string(), quantity: z.number().default(1) });
    await expect(validateToolInput("t", { id: "a" }, undefined, standard)).resolves.toEqual({
      ok: true,
      value: { id: "a", quantity: 1 },
    });
    const check = await validateToolInput("t", { id: 3, quantity: "x" }, undefined, standard);
    expect(!check.ok && check.message).toMatch(/- id: .*expected string.*\n- quantity: .*expected number/i);
  });

  it("does not enforce a schema it cannot compile", async () => {
    const broken = { type: "object", properties: { a: { $ref: "#/$defs/missing" } } };
    await expect(validateToolInput("t", { a: 1 }, broken)).resolves.toEqual({ ok: true, value: { a: 1 } });
  });

  it("reads the draft from $schema", async () => {
    const draft7 = {
      $schema: "http://json-schema.org/draft-07/schema#",
      type: "object",
      properties: { n: { type: "number", exclusiveMinimum: 0 } },
    };
    const check = await validateToolInput("t", { n: 0 }, draft7);
    expect(check.ok).toBe(false);
  });
});
