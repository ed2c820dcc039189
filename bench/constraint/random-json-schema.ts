/**
 * Seeded random JSON Schemas for tool inputs, for the tool-call constraint's
 * validity runs (worker/tool-call-constraint/sampled-calls.test.ts and
 * `npm run bench:constraint`): objects with required and optional
 * properties, strings (with length bounds), string enums whose members need
 * JSON escapes, integers and numbers with bounds, booleans, nullable types,
 * arrays with item bounds, nested objects. `extended` (the default) adds what
 * issue 25 found loose or unwritable: long strings (`maxLength` up to 300),
 * fractional, one-sided and exclusive bounds, negative ranges, enum members
 * holding `<`, nullable strings with bounds. No `pattern` or `format`: a
 * Qwen3.5 string value is raw text the constraint does not hold to a pattern.
 * `loose` (off by default, so the seeded soundness runs draw what they drew)
 * adds what issue 35 found refused: objects that admit unlisted keys
 * (`additionalProperties` absent, `true` or a schema, `properties: {}`),
 * `patternProperties`, schemas with no `type` (`{}`, `{ minimum: 0 }`),
 * boundary numbers, `items: false` and `prefixItems`.
 */
type Schema = Record<string, unknown>;

/** mulberry32: a small seeded generator, uniform in [0, 1). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const KEYS = ["sku", "quantity", "page", "query", "note", "size", "colour", "tags", "address", "city", "lines", "limit", "exact", "price", "filters", "label", "items", "count", "mode", "comment"];
const ENUM_MEMBERS = ["S", "M", "L", 'say "hi"', "back\\slash", "tab\there", "two words", "ünïcode ✓", "new\nline", "a/b", "{braces}", "[x]"];
const ENUM_MEMBERS_EXTENDED = [...ENUM_MEMBERS, "a < b", "<b>bold</b>", "1 <2", "x</tool_call>y"];
const NAMES = ["add_to_cart", "go_to", "search", "set_filter", "place_order", "update_note", "compare", "ship", "rate_item", "open_tab"];

function pick<T>(random: () => number, list: readonly T[]): T {
  return list[Math.floor(random() * list.length)]!;
}

/** Issue 35's additions: what JSON Schema admits that the grammar once refused. */
const LOOSE_VALUES: Schema[] = [
  {},
  { minimum: 0 },
  { maxLength: 8 },
  { type: "number", minimum: -1e15, maximum: 1e15 },
  { type: "integer", minimum: 0, maximum: 0 },
  { type: "integer", exclusiveMinimum: -1, exclusiveMaximum: 1 },
  { type: "number", exclusiveMinimum: 0.5 },
  { type: "array", items: false },
  { type: "array", prefixItems: [{ type: "string" }, { type: "integer", minimum: 0 }], items: { type: "boolean" } },
  { type: "array", prefixItems: [{ type: "number" }], items: false },
  { type: ["integer", "string"] },
  { type: "object" },
  { type: "object", properties: {}, additionalProperties: true },
  { type: "object", additionalProperties: { type: "integer", minimum: 1 } },
];

function valueSchema(random: () => number, depth: number, extended: boolean, loose = false): Schema {
  if (loose && random() < 0.25) return pick(random, LOOSE_VALUES);
  const roll = random();
  if (roll < 0.22) {
    const schema: Schema = { type: "string" };
    if (random() < 0.3) schema.maxLength = extended && random() < 0.4 ? 50 + Math.floor(random() * 250) : 1 + Math.floor(random() * 12);
    if (random() < 0.2) schema.minLength = extended ? 1 + Math.floor(random() * 5) : 1;
    if (extended && typeof schema.minLength === "number" && typeof schema.maxLength === "number" && schema.maxLength < schema.minLength) schema.maxLength = schema.minLength;
    return schema;
  }
  if (roll < 0.36) {
    const members = [...new Set(Array.from({ length: 2 + Math.floor(random() * 3) }, () => pick(random, extended ? ENUM_MEMBERS_EXTENDED : ENUM_MEMBERS)))];
    return { type: "string", enum: members };
  }
  if (roll < 0.5) {
    const schema: Schema = { type: "integer" };
    if (random() < 0.5) schema.minimum = Math.floor(random() * 5);
    if (random() < 0.4) schema.maximum = 10 + Math.floor(random() * 100);
    if (extended && random() < 0.3) return pick(random, [{ type: "integer", minimum: 13, maximum: 120 }, { type: "integer", exclusiveMinimum: 0 }, { type: "integer", maximum: -3 }, { type: "integer", exclusiveMaximum: 100, minimum: -50 }]);
    return schema;
  }
  if (roll < 0.58) {
    if (extended && random() < 0.6) return pick(random, [{ type: "number", minimum: 0.01 }, { type: "number", minimum: 0.5, maximum: 99.5 }, { type: "number", exclusiveMinimum: 0 }, { type: "number", maximum: 1 }, { type: "number", minimum: -2.5, exclusiveMaximum: -1 }, { type: "number", exclusiveMinimum: 0, exclusiveMaximum: 1 }]);
    return random() < 0.5 ? { type: "number" } : { type: "number", minimum: 0 };
  }
  if (roll < 0.68) return { type: "boolean" };
  if (roll < 0.74) {
    if (extended && random() < 0.4) return { anyOf: [{ type: "string", maxLength: 1 + Math.floor(random() * 20) }, { type: "null" }] };
    return { type: [pick(random, ["string", "integer"]), "null"] };
  }
  if (roll < 0.87 || depth >= 2) {
    const schema: Schema = { type: "array", items: depth >= 2 ? { type: pick(random, ["string", "integer", "boolean"]) } : valueSchema(random, depth + 1, extended, loose) };
    if (random() < 0.4) schema.maxItems = 1 + Math.floor(random() * 4);
    if (random() < 0.3) schema.minItems = 1;
    return schema;
  }
  return objectSchema(random, depth + 1, extended, loose);
}

/** What an object admits besides its properties, in loose mode: JSON Schema's default (absent), or said outright. */
const LOOSE_ADDITIONAL: Schema[] = [{}, { additionalProperties: true }, { additionalProperties: { type: "string" } }, { additionalProperties: { type: "integer", minimum: 0 } }, { additionalProperties: { type: "string", maxLength: 8 } }, { additionalProperties: false }, { patternProperties: { "^x-": { type: "string" } } }, { patternProperties: { "^n[0-9]$": { type: "number" } }, additionalProperties: false }];

function objectSchema(random: () => number, depth: number, extended: boolean, loose = false): Schema {
  const count = (loose ? 0 : 1) + Math.floor(random() * (depth === 0 ? 4 : 3));
  const keys = [...new Set(Array.from({ length: count }, () => pick(random, KEYS)))];
  const properties = Object.fromEntries(keys.map((key) => [key, valueSchema(random, depth, extended, loose)]));
  const required = keys.filter(() => random() < 0.6);
  const rest = loose ? pick(random, LOOSE_ADDITIONAL) : { additionalProperties: false };
  return { type: "object", properties, ...(required.length && { required }), ...rest };
}

/** `count` tools with random names (distinct) and random input schemas, from `seed` (`extended`: issue 25's additions, by default; `loose`: issue 35's, off by default). */
export function randomTools(seed: number, count: number, options: { extended?: boolean; loose?: boolean } = {}): { name: string; description: string; inputSchema: Schema }[] {
  const random = seededRandom(seed);
  const names = [...NAMES].sort(() => random() - 0.5).slice(0, count);
  return names.map((name) => ({ name, description: `Random tool ${name}.`, inputSchema: objectSchema(random, 0, options.extended ?? true, options.loose ?? false) }));
}
