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
  const children = Object.values(asSchema(schema.properties) ?? {}).flatMap((value): Schema[] => {
    const child = asSchema(value);
    return child ? [child] : [];
  });
  const more = asSchema(schema.additionalProperties);
  return more ? [...children, more] : children;
}

/** Whether the grammar writes `key` (JSON-escaped bytes as chars) in an object of `schema`: a declared one, or any where undeclared ones are admitted. */
export function admitsKey(schema: Schema, key: string): boolean {
  if (!asSchema(schema.properties)) return schema.additionalProperties !== false;
  return propertyByKey(schema).has(key) || asSchema(schema.additionalProperties) !== undefined && Object.keys(asSchema(schema.properties) ?? {}).length === 0;
}

/** The string members of an enum or const as the grammar writes them (grammar/json-value-rules.ts's `literalsOf`, quotes off, UTF-8 bytes as chars). */
export function stringLiterals(schema: Schema): string[] {
  const members = Array.isArray(schema.enum) ? schema.enum : "const" in schema ? [schema.const] : [];
  const encoder = new TextEncoder();
  return [...new Set(members.filter((member): member is string => typeof member === "string").flatMap(literalsOf))].map((form) => String.fromCharCode(...encoder.encode(form.slice(1, -1))));
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
