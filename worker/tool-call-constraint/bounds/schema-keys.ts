import { countKeyword, literalsOf } from "../grammar/json-value-rules.js";
import { alternativesOf, asSchema, resolveSchema, type Schema } from "../grammar/schema-node.js";

/*
 * What the JSON walker (json-walker.ts) asks of a schema, in the grammar's
 * own terms: keys and string members as json-value-rules.ts writes them
 * (JSON-escaped, their UTF-8 bytes as one char each, the walker reading
 * bytes), and which values have bounds.
 */

/** Whether a value of `schema` has a length or count bound (in any alternative). */
export function bounded(schema: Schema, root: Schema): boolean {
  const alternatives = alternativesOf(schema);
  if (alternatives) return alternatives.some((alternative) => bounded(resolveSchema(alternative, root) ?? {}, root));
  return ["minLength", "maxLength", "minItems", "maxItems"].some((key) => countKeyword(schema, key) !== undefined);
}

/** The schemas of an object's values (its properties, and what else it admits). */
export function childrenOf(schema: Schema): Schema[] {
  const values = [...Object.values(asSchema(schema.properties) ?? {}), ...Object.values(asSchema(schema.patternProperties) ?? {}), schema.additionalProperties ?? {}];
  return values.flatMap((value): Schema[] => {
    const child = asSchema(value);
    return child ? [child] : [];
  });
}

/** Whether an object of `schema` admits keys it does not list (grammar/json-value-rules.ts's `#unlistedMember`). */
function admitsUnlisted(schema: Schema): boolean {
  return schema.additionalProperties !== false || Object.values(asSchema(schema.patternProperties) ?? {}).some((child) => asSchema(child) !== undefined);
}

/** Whether the grammar writes `key` (JSON-escaped bytes as chars) in an object of `schema`: a listed one (not `false`), or any other where unlisted ones are admitted. */
export function admitsKey(schema: Schema, key: string): boolean {
  if (propertyByKey(schema).has(key)) return true;
  // A required key with no property is written as one of any value; a `false` property never.
  if (listedKeys(schema).has(key)) return !Object.keys(asSchema(schema.properties) ?? {}).some((name) => encodeKey(name) === key);
  return admitsUnlisted(schema);
}

/** A key as the walker reads it: JSON-escaped, its UTF-8 bytes as chars. */
function encodeKey(key: string): string {
  return String.fromCharCode(...new TextEncoder().encode(JSON.stringify(key).slice(1, -1)));
}

/**
 * The schema the walker holds a member's value to: its property's, else
 * `additionalProperties` (`{}` where `patternProperties` may apply instead:
 * the grammar does not tell which, so neither do the bounds).
 */
export function memberSchema(schema: Schema, key: string): Schema {
  const listed = propertyByKey(schema).get(key);
  if (listed) return listed;
  if (asSchema(schema.patternProperties)) return {};
  return asSchema(schema.additionalProperties) ?? {};
}

const listedMaps = new WeakMap<Schema, Set<string>>();
/** Every key the schema lists (a `false` property and a required key it has no property for too), as the walker reads keys: never an unlisted one. */
function listedKeys(schema: Schema): Set<string> {
  let set = listedMaps.get(schema);
  if (!set) {
    const required = Array.isArray(schema.required) ? schema.required.filter((key): key is string => typeof key === "string") : [];
    set = new Set([...Object.keys(asSchema(schema.properties) ?? {}), ...required].map(encodeKey));
    listedMaps.set(schema, set);
  }
  return set;
}

/** The string members of an enum or const as the grammar writes them (grammar/json-value-rules.ts's `literalsOf`, quotes off, UTF-8 bytes as chars). */
export function stringLiterals(schema: Schema): string[] {
  const members = Array.isArray(schema.enum) ? schema.enum : "const" in schema ? [schema.const] : [];
  const encoder = new TextEncoder();
  return [...new Set(members.filter((member): member is string => typeof member === "string").flatMap((member) => literalsOf(member)))].map((form) => String.fromCharCode(...encoder.encode(form.slice(1, -1))));
}

const keyMaps = new WeakMap<Schema, Map<string, Schema>>();
export function propertyByKey(schema: Schema): Map<string, Schema> {
  let map = keyMaps.get(schema);
  if (!map) {
    const encoder = new TextEncoder();
    map = new Map();
    for (const [key, value] of Object.entries(asSchema(schema.properties) ?? {})) {
      const child = asSchema(value);
      if (child) map.set(String.fromCharCode(...encoder.encode(JSON.stringify(key).slice(1, -1))), child);
    }
    keyMaps.set(schema, map);
  }
  return map;
}
