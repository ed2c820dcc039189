import type { ToolDescriptor } from "../../session/tool-descriptor.js";

type Schema = Record<string, unknown>;

/**
 * The JSON Schema keywords sent to the browser inside a tool's arguments:
 * the structural core a grammar-based constraint expresses. A tool whose
 * schema uses any other keyword (`$ref`, `oneOf`, `allOf`, `not`,
 * `patternProperties`, `format`…) is held to its object shape instead, since
 * the browser refuses a schema it cannot express (`NotSupportedError`) and
 * would fail the whole step; its calls are still checked against the full
 * schema when they come back (read-step-output.ts).
 */
const SENT = new Set([
  "type",
  "properties",
  "required",
  "additionalProperties",
  "items",
  "enum",
  "const",
  "anyOf",
  "minItems",
  "maxItems",
  "minLength",
  "maxLength",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "pattern",
  "description",
]);
/** Annotations: they constrain nothing, so they are left out rather than refused. */
const DROPPED = new Set(["title", "default", "examples", "$comment", "deprecated", "readOnly", "writeOnly", "$schema", "$id"]);
/** Keywords whose value is a map of names to schemas, and those whose value is a schema or a list of them. */
const SCHEMA_MAPS = new Set(["properties"]);
const SUBSCHEMAS = new Set(["items", "additionalProperties", "anyOf"]);

/** A tool held to its object shape, and the first keyword that made it so. */
export interface HeldTool {
  tool: string;
  keyword: string;
}

/** The step's `responseConstraint`, and the tools it holds to their object shape. */
export interface ResponseConstraint {
  schema: Schema;
  held: HeldTool[];
}

/** `{ "answer": "…" }`: what the person reads. */
export const ANSWER_SCHEMA: Schema = {
  type: "object",
  properties: { answer: { type: "string", minLength: 1 } },
  required: ["answer"],
  additionalProperties: false,
};

class Unsupported extends Error {
  constructor(readonly keyword: string) {
    super(keyword);
  }
}

/** `schema` with only the keywords the browser is sent; throws `Unsupported` at the first other one. */
function sendable(schema: unknown): unknown {
  if (typeof schema === "boolean") return schema;
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) throw new Unsupported("(not a schema)");
  const out: Schema = {};
  for (const [keyword, value] of Object.entries(schema)) {
    if (DROPPED.has(keyword)) continue;
    if (!SENT.has(keyword)) throw new Unsupported(keyword);
    if (SCHEMA_MAPS.has(keyword)) {
      if (typeof value !== "object" || value === null) throw new Unsupported(keyword);
      out[keyword] = Object.fromEntries(Object.entries(value).map(([name, child]) => [name, sendable(child)]));
    } else if (SUBSCHEMAS.has(keyword)) {
      // A list under `items` is the old tuple form: not sent.
      if (keyword === "items" && Array.isArray(value)) throw new Unsupported("items (a list)");
      if (keyword === "anyOf" && !Array.isArray(value)) throw new Unsupported(keyword);
      out[keyword] = Array.isArray(value) ? value.map(sendable) : sendable(value);
    } else {
      out[keyword] = value;
    }
  }
  return out;
}

/** A tool's arguments as the constraint admits them: its schema as sent, always an object. */
function argumentsSchema(tool: ToolDescriptor, holdAll: boolean): { schema: Schema; held?: HeldTool } {
  const given = tool.inputSchema as unknown;
  if (holdAll) return { schema: { type: "object" }, held: { tool: tool.name, keyword: "(the browser refused the schema)" } };
  try {
    const schema = sendable(given ?? {}) as Schema | boolean;
    if (typeof schema === "boolean") return { schema: { type: "object" } };
    // WebMCP tools take an object of named arguments, whatever the schema leaves unsaid.
    return { schema: schema.type === undefined ? { ...schema, type: "object" } : schema };
  } catch (error) {
    if (!(error instanceof Unsupported)) throw error;
    return { schema: { type: "object" }, held: { tool: tool.name, keyword: error.keyword } };
  }
}

/**
 * The `responseConstraint` for one step: the reply is either an answer,
 * `{ "answer": "…" }`, or one or more calls, `{ "calls": [{ "tool": "<an
 * offered name>", "arguments": { … } }] }`, each call's arguments valid
 * against that tool's schema as sent. `summingUp` (the closing summary after
 * `maxSteps`) and a page with no tools admit only the answer. `holdAll`
 * holds every tool to its object shape: the retry after the browser refused
 * a schema.
 */
export function buildResponseConstraint(tools: readonly ToolDescriptor[], options: { summingUp?: boolean; holdAll?: boolean } = {}): ResponseConstraint {
  if (options.summingUp || tools.length === 0) return { schema: ANSWER_SCHEMA, held: [] };
  const held: HeldTool[] = [];
  const branches = tools.map((tool) => {
    const args = argumentsSchema(tool, options.holdAll ?? false);
    if (args.held) held.push(args.held);
    return {
      type: "object",
      properties: { tool: { type: "string", enum: [tool.name] }, arguments: args.schema },
      required: ["tool", "arguments"],
      additionalProperties: false,
    };
  });
  const calls: Schema = {
    type: "object",
    properties: { calls: { type: "array", minItems: 1, items: branches.length === 1 ? branches[0] : { anyOf: branches } } },
    required: ["calls"],
    additionalProperties: false,
  };
  return { schema: { anyOf: [ANSWER_SCHEMA, calls] }, held };
}
