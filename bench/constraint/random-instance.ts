/**
 * Random values valid against a JSON Schema, for the constraint's
 * completeness runs (worker/tool-call-constraint/admitted-calls.test.ts):
 * written apart from the grammar (grammar/) on purpose, reading the schema
 * as the JSON Schema spec does, so a case the grammar forgot shows up as a
 * refused instance. It covers the keywords the bench's schemas use
 * (random-json-schema.ts); every value it draws is checked by ajv before it
 * is used, so a bug here costs a skipped draw, never a false failure.
 */
type Schema = Record<string, unknown>;

/** Strings a model writes that stress the writers and the grammar: escapes, `<`, non-ASCII, astral, the closers. */
const STRINGS = ["", "NYC", 'say "hi"', "back\\slash", "tab\there", "new\nline", "ünïcode ✓", "emoji 😀", "a < b", "<b>bold</b>", "x</tool_call>y", "a/b", "{braces}", "[x]", " padded ", "1 <2", "line\r\nbreak", "\u0001ctl"];
const KEYS = ["city", "zip", "note", "extra", "meta", "x-trace", "ünï", "with space", 'quo"te', "a/b", "tag_1", "colour"];

function pick<T>(random: () => number, list: readonly T[]): T {
  return list[Math.floor(random() * list.length)]!;
}

function lookup(root: Schema, reference: string): Schema {
  if (reference === "#") return root;
  let node: unknown = root;
  for (const part of reference.slice(2).split("/")) node = (node as Record<string, unknown>)[part.replace(/~1/g, "/").replace(/~0/g, "~")];
  return node as Schema;
}

function randomString(random: () => number, min: number, max: number): string {
  let text = random() < 0.6 ? pick(random, STRINGS) : Array.from({ length: Math.floor(random() * 40) }, () => pick(random, [..."abcxyz <>/\\\"'\n\tüé✓😀{}[]:,"])).join("");
  // Lengths count code points, as JSON Schema does.
  let points = [...text];
  if (random() < 0.15) points = Array.from({ length: Math.max(min, Math.min(max, 60 + Math.floor(random() * 240))) }, (_, index) => "abcdeé✓ <"[index % 9]!);
  while (points.length < min) points.push(pick(random, [..."abü✓ <"]));
  if (points.length > max) points = points.slice(0, max);
  text = points.join("");
  return text;
}

function randomNumber(random: () => number, schema: Schema, integer: boolean): number {
  const low = typeof schema.minimum === "number" ? schema.minimum : typeof schema.exclusiveMinimum === "number" ? schema.exclusiveMinimum : undefined;
  const high = typeof schema.maximum === "number" ? schema.maximum : typeof schema.exclusiveMaximum === "number" ? schema.exclusiveMaximum : undefined;
  const lowOpen = typeof schema.minimum !== "number" && low !== undefined;
  const highOpen = typeof schema.maximum !== "number" && high !== undefined;
  const from = low ?? (high !== undefined ? high - 1000 : -1e6);
  const to = high ?? (low !== undefined ? low + 1000 : 1e6);
  const candidates: number[] = [];
  // The bounds themselves and their neighbours: where a range rule is most likely wrong.
  for (const edge of [from, to, from + 1, to - 1, from + 0.5, to - 0.01, 0, -1, 1, 0.1, 1e15, -1e15]) candidates.push(integer ? Math.round(edge) : edge);
  candidates.push(integer ? Math.round(from + random() * (to - from)) : Math.round((from + random() * (to - from)) * 1000) / 1000);
  const fits = (value: number) => (low === undefined || (lowOpen ? value > low : value >= low)) && (high === undefined || (highOpen ? value < high : value <= high)) && (!integer || Number.isInteger(value));
  const good = candidates.filter(fits);
  return good.length ? pick(random, good) : from;
}

/**
 * A value valid against `schema` (ajv is the judge: the caller checks),
 * nesting cut short past four levels; an object that admits unlisted keys
 * gets some, most of the time, anywhere among its listed ones.
 */
export function randomInstance(random: () => number, schema: unknown, root: Schema, depth = 0): unknown {
  if (schema === true || schema === undefined) return anyValue(random, depth);
  let node = schema as Schema;
  while (typeof node.$ref === "string") {
    const { $ref, ...siblings } = node;
    node = { ...lookup(root, $ref), ...siblings };
  }
  if ("const" in node) return node.const;
  if (Array.isArray(node.enum)) return pick(random, node.enum);
  const options = (node.anyOf ?? node.oneOf) as unknown[] | undefined;
  if (Array.isArray(options)) {
    const { anyOf: _anyOf, oneOf: _oneOf, ...siblings } = node;
    return randomInstance(random, { ...siblings, ...(pick(random, options) as Schema) }, root, depth);
  }
  const types = Array.isArray(node.type) ? (node.type as string[]) : typeof node.type === "string" ? [node.type] : ["string", "number", "integer", "boolean", "null", "object", "array"];
  const type = pick(random, types);
  switch (type) {
    case "string":
      return randomString(random, typeof node.minLength === "number" ? node.minLength : 0, typeof node.maxLength === "number" ? node.maxLength : Infinity);
    case "integer":
    case "number":
      return randomNumber(random, node, type === "integer");
    case "boolean":
      return random() < 0.5;
    case "null":
      return null;
    case "array": {
      if (Array.isArray(node.prefixItems)) {
        const prefix = node.prefixItems.slice(0, Math.floor(random() * (node.prefixItems.length + 1))).map((item) => randomInstance(random, item, root, depth + 1));
        const more = prefix.length === node.prefixItems.length && node.items !== false ? Math.floor(random() * 3) : 0;
        return [...prefix, ...Array.from({ length: more }, () => randomInstance(random, node.items ?? {}, root, depth + 1))];
      }
      if (node.items === false) return [];
      const min = typeof node.minItems === "number" ? node.minItems : 0;
      const max = typeof node.maxItems === "number" ? node.maxItems : 4;
      const count = depth > 3 ? min : min + Math.floor(random() * (Math.max(min, Math.min(max, min + 4)) - min + 1));
      return Array.from({ length: count }, () => randomInstance(random, node.items ?? {}, root, depth + 1));
    }
    default:
      return randomObject(random, node, root, depth);
  }
}

function randomObject(random: () => number, node: Schema, root: Schema, depth: number): Record<string, unknown> {
  const properties = (node.properties ?? {}) as Record<string, unknown>;
  const required = new Set(Array.isArray(node.required) ? (node.required as string[]) : []);
  const declared: [string, unknown][] = [];
  for (const [key, child] of Object.entries(properties)) {
    if (child === false) continue;
    if (required.has(key) || (depth < 4 && random() < 0.6)) declared.push([key, randomInstance(random, child, root, depth + 1)]);
  }
  const extra: [string, unknown][] = [];
  const patterns = (node.patternProperties ?? {}) as Record<string, unknown>;
  const additional = node.additionalProperties;
  if (additional !== false && depth < 4 && random() < 0.7) {
    const count = 1 + Math.floor(random() * 3);
    for (let index = 0; index < count; index++) {
      const key = pick(random, KEYS);
      if (key in properties || extra.some(([name]) => name === key) || Object.keys(patterns).some((pattern) => new RegExp(pattern, "u").test(key))) continue;
      extra.push([key, randomInstance(random, additional ?? {}, root, depth + 1)]);
    }
  }
  for (const [pattern, child] of Object.entries(patterns)) {
    if (depth >= 4 || random() < 0.5) continue;
    // A key the pattern matches, that no other pattern and no property claims.
    const key = [`${pattern.replace(/[\^$]/g, "")}1`, "x-a", "n1"].find((candidate) => new RegExp(pattern, "u").test(candidate) && !(candidate in properties) && Object.keys(patterns).every((other) => other === pattern || !new RegExp(other, "u").test(candidate)));
    if (key && !extra.some(([name]) => name === key)) extra.push([key, randomInstance(random, child, root, depth + 1)]);
  }
  // Unlisted keys anywhere among the listed ones (listed ones keep the schema's order).
  const members = [...declared];
  for (const entry of extra) members.splice(Math.floor(random() * (members.length + 1)), 0, entry);
  const object: Record<string, unknown> = {};
  for (const [key, value] of members) Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
  return object;
}

function anyValue(random: () => number, depth: number): unknown {
  const roll = random();
  if (roll < 0.3 || depth > 3) return randomString(random, 0, 30);
  if (roll < 0.45) return Math.round((random() - 0.5) * 1e6) / (random() < 0.5 ? 1 : 1000);
  if (roll < 0.55) return random() < 0.5;
  if (roll < 0.6) return null;
  if (roll < 0.8) return Array.from({ length: Math.floor(random() * 3) }, () => anyValue(random, depth + 1));
  return Object.fromEntries(Array.from({ length: Math.floor(random() * 3) }, (_, index) => [pick(random, KEYS) + index, anyValue(random, depth + 1)]));
}
