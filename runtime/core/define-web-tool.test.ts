import { describe, expect, expectTypeOf, it } from "vitest";
import { z } from "zod";
import { defineWebTool, isWebTool, type WebTool, type WebToolConfig } from "./define-web-tool.js";

const execute = () => "ok";

describe("defineWebTool", () => {
  it("returns frozen plain data with a default input schema", () => {
    const tool = defineWebTool({ name: "get_cart", description: "Reads the cart.", execute });
    expect(tool).toEqual({
      name: "get_cart",
      description: "Reads the cart.",
      inputSchema: { type: "object", properties: {} },
      execute,
    });
    expect(Object.isFrozen(tool)).toBe(true);
    expect(Object.isFrozen(tool.inputSchema)).toBe(true);
    expect(isWebTool(tool)).toBe(true);
    expect(Object.keys(tool)).not.toContain("validate");
  });

  it("copies and deeply freezes a JSON Schema, keeping title and annotations", () => {
    const schema = { type: "object", properties: { id: { type: "string" } }, required: ["id"] };
    const tool = defineWebTool({
      name: "add_to_cart",
      title: "Add to cart",
      description: "Adds a product.",
      inputSchema: schema,
      annotations: { destructiveHint: false, idempotentHint: true },
      execute,
    });
    expect(tool.inputSchema).toEqual(schema);
    expect(tool.inputSchema).not.toBe(schema);
    expect(Object.isFrozen((tool.inputSchema.properties as Record<string, object>).id)).toBe(true);
    expect(Object.isFrozen(schema)).toBe(false);
    expect(tool.title).toBe("Add to cart");
    expect(tool.annotations).toEqual({ destructiveHint: false, idempotentHint: true });
  });

  it("takes WebMCP's annotations (consequentialHint, untrustedContentHint) beside MCP's, and an outputSchema it copies and freezes", () => {
    const outputSchema = { type: "object", properties: { orderId: { type: "string" } } };
    const tool = defineWebTool({
      name: "place_order",
      description: "Places the order.",
      outputSchema,
      annotations: { consequentialHint: true, untrustedContentHint: false },
      execute,
    });
    expect(tool.annotations).toEqual({ consequentialHint: true, untrustedContentHint: false });
    expect(tool.outputSchema).toEqual(outputSchema);
    expect(tool.outputSchema).not.toBe(outputSchema);
    expect(Object.isFrozen(tool.outputSchema!.properties)).toBe(true);
    expect(() => defineWebTool({ name: "x", description: "d", outputSchema: [] as never, execute })).toThrow(
      'defineWebTool("x"): outputSchema must be a JSON Schema object.',
    );
    expect(() => defineWebTool({ name: "x", description: "d", outputSchema: { type: "objet" }, execute })).toThrow(/outputSchema\.type .*fix the tool's output schema/);
  });

  it("converts a zod schema to draft 2020-12 JSON Schema and keeps it to validate", () => {
    const input = z.object({ id: z.string(), quantity: z.number().int().min(1).default(1) });
    const tool = defineWebTool({
      name: "add_to_cart",
      description: "Adds a product.",
      inputSchema: input,
      execute: ({ id, quantity }) => `${id} x${quantity}`,
    });
    expect(tool.inputSchema).toMatchObject({
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      properties: { id: { type: "string" }, quantity: { type: "integer", minimum: 1 } },
      required: ["id"],
    });
    expect(tool.validate).toBe(input);
    expectTypeOf(tool).toEqualTypeOf<WebTool<{ id: string; quantity: number }>>();
  });

  it("is assignable to WebTool for any input type", () => {
    const tool = defineWebTool({ name: "t", description: "d", inputSchema: z.object({ n: z.number() }), execute });
    const list: WebTool[] = [tool];
    expect(list).toHaveLength(1);
  });

  it.each<[string, unknown, RegExp]>([
    ["a non-object config", null, /pass a config object/],
    ["an unknown option", { name: "t", description: "d", execute, parameters: {} }, /unknown option "parameters"/],
    ["a name with spaces", { name: "add to cart", description: "d", execute }, /name must be 1 to 64.*"add to cart"/],
    ["an empty name", { name: "", description: "d", execute }, /name must be 1 to 64/],
    ["a 65-character name", { name: "a".repeat(65), description: "d", execute }, /name must be 1 to 64/],
    ["a non-string title", { name: "t", title: 1, description: "d", execute }, /title must be a string/],
    ["a blank description", { name: "t", description: "  ", execute }, /description must be a non-empty string/],
    ["no execute", { name: "t", description: "d" }, /execute must be a function/],
    ["an array schema", { name: "t", description: "d", inputSchema: [], execute }, /JSON Schema object or a zod/],
    ["a non-object schema type", { name: "t", description: "d", inputSchema: { type: "string" }, execute }, /describe an object/],
    ["a keyword that is not JSON Schema", { name: "t", description: "d", inputSchema: { type: "object", properties: { qty: { type: "int" } } }, execute }, /inputSchema\.properties\.qty\.type must be one of/],
    ["a cyclic schema", { name: "t", description: "d", inputSchema: cyclic(), execute }, /must be plain JSON/],
    ["bad annotations", { name: "t", description: "d", annotations: "ro", execute }, /annotations must be an object/],
    ["an unknown annotation", { name: "t", description: "d", annotations: { readonly: true }, execute }, /unknown annotation "readonly"/],
    ["a non-boolean hint", { name: "t", description: "d", annotations: { readOnlyHint: "yes" }, execute }, /readOnlyHint must be true or false/],
  ])("throws a TypeError for %s", (_, config, message) => {
    expect(() => defineWebTool(config as WebToolConfig)).toThrow(TypeError);
    expect(() => defineWebTool(config as WebToolConfig)).toThrow(message);
  });

  it("names the fix for a Standard Schema without JSON Schema support", () => {
    const standard = { "~standard": { version: 1, vendor: "x", validate: (value: unknown) => ({ value }) } } as const;
    expect(() => defineWebTool({ name: "t", description: "d", inputSchema: standard, execute })).toThrow(
      /cannot emit JSON Schema.*pass a JSON Schema object/,
    );
  });

  it("names the fix when zod cannot convert the schema", () => {
    const input = z.object({ when: z.date() });
    expect(() => defineWebTool({ name: "t", description: "d", inputSchema: input, execute })).toThrow(
      /could not be converted to JSON Schema/,
    );
  });
});

describe("isWebTool", () => {
  it("checks the marker structurally, not the prototype", () => {
    const tool = defineWebTool({ name: "t", description: "d", execute });
    const fromAnotherCopy = Object.defineProperty({ name: "t", execute }, Symbol.for("webmcp-agents.web-tool"), {
      value: true,
    });
    expect(isWebTool(fromAnotherCopy)).toBe(true);
    expect(isWebTool({ ...tool })).toBe(false);
    expect(isWebTool({ name: "t", description: "d", execute })).toBe(false);
    expect(isWebTool("t")).toBe(false);
    expect(isWebTool(null)).toBe(false);
  });
});

function cyclic(): Record<string, unknown> {
  const schema: Record<string, unknown> = { type: "object" };
  schema.self = schema;
  return schema;
}
