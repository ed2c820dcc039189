// The responseConstraint the built-in adapter builds, checked with an
// independent JSON Schema validator (ajv; the runtime validates with
// @cfworker/json-schema) over 200 random tool sets from the constraint
// bench's generator: every valid answer and call is admitted, each planted
// invalid one (an unknown tool, a wrong type, a missing required field) is
// refused, and every call the adapter's reader accepts is valid against its
// tool's own schema.
import { describe, expect, it } from "vitest";
import { jsonSchemaValidator } from "../../../bench/constraint/json-schema-validator.js";
import { randomTools, seededRandom } from "../../../bench/constraint/random-json-schema.js";
import type { ToolDescriptor } from "../../session/tool-descriptor.js";
import { readStepOutput } from "./read-step-output.js";
import { ANSWER_SCHEMA, buildResponseConstraint } from "./response-constraint.js";

type Schema = Record<string, unknown>;
const TOOL_SETS = 200;
const ANSWERS = ["Done.", 'She said "hi" \\ then left.', "Line one\nline two\ttabbed", "ünïcode ✓ 🧦", "{\"not\": \"a call\"}", "</answer> <b>x</b>"];

/** A value valid against one of the generator's schemas (random-json-schema.ts covers these keywords). */
function validValue(schema: Schema, random: () => number): unknown {
  if (Array.isArray(schema.anyOf)) return validValue(schema.anyOf[Math.floor(random() * schema.anyOf.length)] as Schema, random);
  if (Array.isArray(schema.enum)) return schema.enum[Math.floor(random() * schema.enum.length)];
  const type = Array.isArray(schema.type) ? schema.type[Math.floor(random() * schema.type.length)] : schema.type;
  switch (type) {
    case "null":
      return null;
    case "boolean":
      return random() < 0.5;
    case "string": {
      const min = (schema.minLength as number | undefined) ?? 0;
      const max = (schema.maxLength as number | undefined) ?? min + 8;
      const length = min + Math.floor(random() * (max - min + 1));
      return Array.from({ length }, (_, index) => 'ab"\\é\n'[index % 6]).join("");
    }
    case "integer":
    case "number": {
      const low = schema.minimum !== undefined ? (schema.minimum as number) : schema.exclusiveMinimum !== undefined ? (schema.exclusiveMinimum as number) + 1 : -20;
      const high = schema.maximum !== undefined ? (schema.maximum as number) : schema.exclusiveMaximum !== undefined ? (schema.exclusiveMaximum as number) - 1 : low + 40;
      if (type === "number" && high - low < 1) return (low + high) / 2 === schema.exclusiveMinimum ? low + (high - low) / 4 : (low + high) / 2;
      const value = Math.ceil(low) + Math.floor(random() * (Math.floor(high) - Math.ceil(low) + 1));
      return type === "number" && value + 0.5 <= high && random() < 0.5 ? value + 0.5 : value;
    }
    case "array": {
      const min = (schema.minItems as number | undefined) ?? 0;
      const max = Math.min((schema.maxItems as number | undefined) ?? 3, min + 3);
      return Array.from({ length: min + Math.floor(random() * (max - min + 1)) }, () => validValue(schema.items as Schema, random));
    }
    default: {
      const properties = (schema.properties as Record<string, Schema> | undefined) ?? {};
      const required = new Set((schema.required as string[] | undefined) ?? []);
      return Object.fromEntries(Object.entries(properties).filter(([key]) => required.has(key) || random() < 0.5).map(([key, child]) => [key, validValue(child, random)]));
    }
  }
}

/** A value of the wrong type for `schema`, whatever it admits. */
const wrongValue = (schema: Schema): unknown => (schema.type === "object" ? 7 : { wrong: true });

const call = (tool: string, args: unknown) => ({ calls: [{ tool, arguments: args }] });

/** CPU-bound runs over 200 tool sets: about 5 s here, so a machine 3x slower on a shared core keeps half of it in hand. */
const PROPERTY_TIMEOUT_MS = 60_000;

describe("the built-in adapter's responseConstraint, over random tool sets (checked with ajv)", () => {
  it(`admits every valid answer and call and refuses each planted invalid one, across ${TOOL_SETS} tool sets`, async () => {
    const ajv = jsonSchemaValidator();
    let checkedCalls = 0;
    let planted = 0;
    for (let seed = 1; seed <= TOOL_SETS; seed++) {
      const tools: ToolDescriptor[] = randomTools(seed, 1 + (seed % 6));
      const { schema, held } = buildResponseConstraint(tools);
      expect(held).toEqual([]);
      const random = seededRandom(seed * 7919);
      for (const answer of ANSWERS) expect(ajv.valid(schema, { answer }), `${seed}: ${ajv.errors()}`).toBe(true);

      for (const tool of tools) {
        const args = validValue(tool.inputSchema as Schema, random);
        // The generated value itself is checked first, so a miss is the generator's, not the constraint's.
        expect(ajv.valid(tool.inputSchema, args), `${seed} ${tool.name}: ${ajv.errors()} ${JSON.stringify(args)}`).toBe(true);
        expect(ajv.valid(schema, call(tool.name, args)), `${seed} ${tool.name}: ${ajv.errors()}`).toBe(true);
        checkedCalls++;

        const properties = Object.entries(((tool.inputSchema as Schema).properties as Record<string, Schema>) ?? {});
        const [key, child] = properties[0]!;
        const wrong = { ...(args as object), [key]: wrongValue(child) };
        const required = ((tool.inputSchema as Schema).required as string[] | undefined) ?? [];
        const missing: Record<string, unknown> = { ...(args as object) };
        if (required.length) delete missing[required[0]!];
        const invalid = [call("no_such_tool", args), call(tool.name, wrong), ...(required.length ? [call(tool.name, missing)] : [])];
        for (const reply of invalid) {
          expect(ajv.valid(schema, reply), `${seed}: admitted ${JSON.stringify(reply)}`).toBe(false);
          planted++;
          // What the reader does with it, had a browser let it through: never a call that runs.
          const read = await readStepOutput(JSON.stringify(reply), tools);
          expect(read.kind === "calls" && read.parts.every((part) => part.type === "tool-call-invalid"), JSON.stringify(reply)).toBe(true);
        }
        // Several calls in one reply, valid ones, each accepted and valid against its own tool's schema.
        const many = { calls: tools.map((each) => ({ tool: each.name, arguments: validValue(each.inputSchema as Schema, random) })) };
        expect(ajv.valid(schema, many), `${seed}: ${ajv.errors()}`).toBe(true);
        const read = await readStepOutput(JSON.stringify(many), tools);
        expect(read.kind).toBe("calls");
        for (const part of read.kind === "calls" ? read.parts : []) {
          expect(part.type, JSON.stringify(part)).toBe("tool-call");
          if (part.type === "tool-call") expect(ajv.valid(tools.find((each) => each.name === part.name)!.inputSchema, part.input)).toBe(true);
        }
      }
      // Neither an empty call list, nor an answer with calls, nor a stray key.
      expect(ajv.valid(schema, { calls: [] })).toBe(false);
      expect(ajv.valid(schema, { answer: "x", extra: 1 })).toBe(false);
      expect(ajv.valid(schema, { answer: "" })).toBe(false);
    }
    expect(checkedCalls).toBeGreaterThan(600);
    expect(planted).toBeGreaterThan(1200);
  }, PROPERTY_TIMEOUT_MS);

  it("every call the reader accepts from any reply, valid or not, is valid against its tool's schema", async () => {
    const ajv = jsonSchemaValidator();
    let accepted = 0;
    for (let seed = 1; seed <= TOOL_SETS; seed++) {
      const tools: ToolDescriptor[] = randomTools(seed, 3);
      const random = seededRandom(seed);
      const replies = tools.flatMap((tool) => {
        const args = validValue(tool.inputSchema as Schema, random) as Record<string, unknown>;
        const [key, child] = Object.entries(((tool.inputSchema as Schema).properties as Record<string, Schema>) ?? {})[0]!;
        return [call(tool.name, args), call(tool.name, { ...args, [key]: wrongValue(child) }), call(tool.name, "not an object"), call(tool.name, { ...args, stray: 1 })];
      });
      for (const reply of replies) {
        const read = await readStepOutput(JSON.stringify(reply), tools);
        for (const part of read.kind === "calls" ? read.parts : []) {
          if (part.type !== "tool-call") continue;
          accepted++;
          expect(ajv.valid(tools.find((tool) => tool.name === part.name)!.inputSchema, part.input), `${seed}: ${JSON.stringify(part)}`).toBe(true);
        }
      }
    }
    expect(accepted).toBeGreaterThanOrEqual(TOOL_SETS * 3);
  }, PROPERTY_TIMEOUT_MS);

  it("the closing summary and a page with no tools admit only an answer", () => {
    const ajv = jsonSchemaValidator();
    const tools = randomTools(3, 2);
    for (const schema of [buildResponseConstraint(tools, { summingUp: true }).schema, buildResponseConstraint([]).schema]) {
      expect(schema).toEqual(ANSWER_SCHEMA);
      expect(ajv.valid(schema, { answer: "Here is what I found." })).toBe(true);
      expect(ajv.valid(schema, call(tools[0]!.name, {}))).toBe(false);
    }
  });

  it("a tool whose schema uses what the browser is not sent is held to an object (the others keep theirs); annotations are left out", () => {
    const ajv = jsonSchemaValidator();
    const tools: ToolDescriptor[] = [
      { name: "pick", description: "Pick.", inputSchema: { type: "object", properties: { size: { oneOf: [{ const: "S" }, { const: "M" }] } } } },
      { name: "note", description: "Note.", inputSchema: { $schema: "https://json-schema.org/draft/2020-12/schema", type: "object", title: "Note", properties: { text: { type: "string", default: "", maxLength: 5 } }, required: ["text"] } },
      { name: "ref", description: "Ref.", inputSchema: { type: "object", properties: { a: { $ref: "#/$defs/a" } }, $defs: { a: { type: "string" } } } },
    ];
    const { schema, held } = buildResponseConstraint(tools);
    expect(held).toEqual([
      { tool: "pick", keyword: "oneOf" },
      { tool: "ref", keyword: "$ref" },
    ]);
    expect(JSON.stringify(schema)).not.toMatch(/"title"|"default"|"\$schema"/);
    expect(ajv.valid(schema, call("pick", { size: "XL" }))).toBe(true);
    expect(ajv.valid(schema, call("pick", "S"))).toBe(false);
    expect(ajv.valid(schema, call("note", { text: "toolong" }))).toBe(false);
    expect(ajv.valid(schema, call("note", { text: "ok" }))).toBe(true);
    expect(buildResponseConstraint(tools, { holdAll: true }).held.map((each) => each.tool)).toEqual(["pick", "note", "ref"]);
  });
});
