/** A JSON Schema object (a boolean schema is read as `{}` or `{ not: {} }`). */
export type Schema = Record<string, unknown>;

/** The JSON types a value can have. */
export type JsonType = "string" | "number" | "integer" | "boolean" | "null" | "object" | "array";

const TYPES: readonly JsonType[] = ["string", "number", "integer", "boolean", "null", "object", "array"];

/** Keywords that only describe (never constrain). */
const ANNOTATIONS = new Set(["$schema", "$id", "$comment", "title", "description", "default", "examples", "deprecated", "readOnly", "writeOnly", "$defs", "definitions", "$anchor"]);

/** Keywords the grammar and the bounds enforce; any other constraint is named in the one warning. */
export const ENFORCED = new Set([
  "type",
  "enum",
  "const",
  "properties",
  "required",
  "additionalProperties",
  "items",
  "prefixItems",
  "minItems",
  "maxItems",
  "minLength",
  "maxLength",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "anyOf",
  "oneOf",
  "allOf",
  "$ref",
]);

/** `schema` as an object schema (`true` is `{}`; `false` and non-objects are undefined). */
export function asSchema(value: unknown): Schema | undefined {
  if (value === true) return {};
  return value && typeof value === "object" && !Array.isArray(value) ? (value as Schema) : undefined;
}

/**
 * `schema` with a local `$ref` (`#`, `#/$defs/…`, `#/definitions/…`) and a
 * one-element `allOf` read into it (siblings kept over the target's), or
 * undefined when the reference does not resolve. `seen` stops a loop of
 * references that never reaches a schema.
 */
export function resolveSchema(schema: Schema, root: Schema, seen = new Set<Schema>()): Schema | undefined {
  let current = schema;
  while (typeof current.$ref === "string" || (Array.isArray(current.allOf) && current.allOf.length === 1)) {
    if (seen.has(current)) return undefined;
    seen.add(current);
    const { $ref, allOf, ...siblings } = current;
    const target = typeof $ref === "string" ? lookup(root, $ref) : asSchema((allOf as unknown[])[0]);
    if (!target) return undefined;
    current = { ...target, ...siblings, ...mergedMembers(target, siblings), ...(typeof $ref === "string" && Array.isArray(allOf) ? { allOf } : {}) };
  }
  return current;
}

/**
 * `properties` and `patternProperties` of both sides of a merge, the
 * siblings' schema kept for a key both list. Keeping one side's whole map
 * would refuse what the other lists where either says
 * `additionalProperties: false` (a `$ref` to `{properties: {a},
 * additionalProperties: false}` beside `properties: {b}` admits `{a: 1}`).
 * Any other keyword on both sides keeps the siblings' one: looser than
 * both together, never stricter.
 */
function mergedMembers(target: Schema, siblings: Schema): Schema {
  const merged: Schema = {};
  for (const key of ["properties", "patternProperties"]) {
    const mine = asSchema(siblings[key]);
    const theirs = asSchema(target[key]);
    if (mine && theirs) merged[key] = { ...theirs, ...mine };
  }
  return merged;
}

function lookup(root: Schema, reference: string): Schema | undefined {
  if (reference === "#") return root;
  if (!reference.startsWith("#/")) return undefined;
  let node: unknown = root;
  for (const part of reference.slice(2).split("/")) {
    const key = part.replace(/~1/g, "/").replace(/~0/g, "~");
    node = node && typeof node === "object" ? (node as Record<string, unknown>)[key] : undefined;
  }
  return asSchema(node);
}

/**
 * The alternatives of `anyOf` / `oneOf` with the schema's other keywords
 * read into each (`{type: "object", anyOf: [{required: ["a"]}]}` is one
 * alternative, an object that requires "a"); undefined without either.
 */
export function alternativesOf(schema: Schema): Schema[] | undefined {
  const list = Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : undefined;
  if (!list) return undefined;
  const { anyOf: _anyOf, oneOf: _oneOf, ...siblings } = schema;
  return list.flatMap((option) => {
    const alternative = asSchema(option);
    return alternative ? [{ ...siblings, ...alternative }] : [];
  });
}

/**
 * The types a schema allows: its `type`, else all. A keyword never implies a
 * type in JSON Schema: `{ minimum: 0 }` admits `"text"` (the keyword only
 * holds numbers), so reading one as a type would refuse valid values.
 */
export function typesOf(schema: Schema): JsonType[] {
  const declared = Array.isArray(schema.type) ? schema.type : typeof schema.type === "string" ? [schema.type] : undefined;
  if (declared) return TYPES.filter((type) => declared.includes(type));
  return [...TYPES];
}

/** The JSON type of a value (integers apart from other numbers). */
export function jsonTypeOf(value: unknown): JsonType {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value as JsonType;
}

/** Whether `schema` admits every value (`{}`, `true`, annotations only): one shared rule, `j_any`. */
export function isUnconstrained(schema: Schema): boolean {
  return Object.keys(schema).every((key) => ANNOTATIONS.has(key) || key.startsWith("x-"));
}

/** Keywords of `schema` that constrain values but are not enforced. */
export function unenforcedKeywords(schema: Schema): string[] {
  return Object.keys(schema).filter((key) => !ENFORCED.has(key) && !ANNOTATIONS.has(key) && !key.startsWith("x-"));
}
