const TYPES = new Set(["string", "number", "integer", "boolean", "object", "array", "null"]);
/** Keywords whose value is one schema, a map of schemas, or a list of schemas. */
const ONE = ["items", "additionalProperties", "not", "if", "then", "else", "contains", "propertyNames", "unevaluatedProperties", "unevaluatedItems", "additionalItems"];
const MAP = ["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"];
const LIST = ["allOf", "anyOf", "oneOf", "prefixItems"];
const COUNTS = ["minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties", "minContains", "maxContains"];
const NUMBERS = ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"];
/** Deeper than this is refused: no real tool nests so far, and the walk stays bounded. */
const MAX_DEPTH = 64;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Checks that `schema` is a JSON Schema by the keywords a tool's input uses
 * (types, properties, required, enums, items, combinators, bounds, pattern),
 * without recursion. Throws a `TypeError` that starts with `where`, names the
 * path of the first wrong keyword (`inputSchema.properties.qty.type`) and
 * says what it must be. Unknown keywords are allowed, as in JSON Schema.
 */
export function checkSchemaShape(schema: unknown, where: string, root = "inputSchema"): void {
  const stack: [unknown, string, number][] = [[schema, root, 0]];
  const fail = (path: string, must: string): never => {
    throw new TypeError(`${where}: ${path} ${must}; fix the tool's ${root === "outputSchema" ? "output" : "input"} schema (JSON Schema 2020-12).`);
  };
  while (stack.length) {
    const [node, path, depth] = stack.pop()!;
    if (typeof node === "boolean") continue;
    if (!isObject(node)) fail(path, "must be a schema (an object, or true / false)");
    const value = node as Record<string, unknown>;
    if (depth > MAX_DEPTH) fail(path, `nests deeper than ${MAX_DEPTH} levels`);
    if ("type" in value) {
      const types = Array.isArray(value.type) ? value.type : [value.type];
      const wrong = types.find((type) => typeof type !== "string" || !TYPES.has(type));
      if (wrong !== undefined || types.length === 0) fail(`${path}.type`, `must be one of ${[...TYPES].join(", ")} (or a list of them), not ${JSON.stringify(wrong ?? value.type)}`);
    }
    if ("required" in value && !(Array.isArray(value.required) && value.required.every((key) => typeof key === "string"))) fail(`${path}.required`, "must be a list of property names");
    if ("enum" in value && !Array.isArray(value.enum)) fail(`${path}.enum`, "must be a list of values");
    if ("pattern" in value) {
      if (typeof value.pattern !== "string") fail(`${path}.pattern`, "must be a regular expression as a string");
      try {
        new RegExp(value.pattern as string);
      } catch {
        fail(`${path}.pattern`, `is not a valid regular expression (${JSON.stringify(value.pattern)})`);
      }
    }
    for (const key of COUNTS) if (key in value && !(Number.isInteger(value[key]) && (value[key] as number) >= 0)) fail(`${path}.${key}`, "must be a whole number, 0 or more");
    for (const key of NUMBERS) if (key in value && typeof value[key] !== "number") fail(`${path}.${key}`, "must be a number");
    if ("$ref" in value && typeof value.$ref !== "string") fail(`${path}.$ref`, "must be a string such as \"#/$defs/item\"");
    for (const key of ONE) if (key in value) stack.push([value[key], `${path}.${key}`, depth + 1]);
    for (const key of MAP) {
      if (!(key in value)) continue;
      if (!isObject(value[key])) fail(`${path}.${key}`, "must be an object of schemas");
      for (const [name, child] of Object.entries(value[key] as Record<string, unknown>)) stack.push([child, `${path}.${key}.${name}`, depth + 1]);
    }
    for (const key of LIST) {
      if (!(key in value)) continue;
      if (!Array.isArray(value[key]) || (value[key] as unknown[]).length === 0) fail(`${path}.${key}`, "must be a non-empty list of schemas");
      (value[key] as unknown[]).forEach((child, index) => stack.push([child, `${path}.${key}[${index}]`, depth + 1]));
    }
  }
}
