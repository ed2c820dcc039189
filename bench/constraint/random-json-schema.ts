/**
 * Seeded random JSON Schemas for tool inputs, for the tool-call constraint's
 * validity runs (worker/tool-call-constraint/sampled-calls.test.ts and
 * `npm run bench:constraint`): objects with required and optional
 * properties, strings (with length bounds), string enums whose members need
 * JSON escapes, integers and numbers with bounds, booleans, nullable types,
 * arrays with item bounds, nested objects. No `pattern` or `format`: a
 * Qwen3.5 string value is raw text the constraint cannot hold to a pattern.
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
const NAMES = ["add_to_cart", "go_to", "search", "set_filter", "place_order", "update_note", "compare", "ship", "rate_item", "open_tab"];

function pick<T>(random: () => number, list: readonly T[]): T {
  return list[Math.floor(random() * list.length)]!;
}

function valueSchema(random: () => number, depth: number): Schema {
  const roll = random();
  if (roll < 0.22) {
    const schema: Schema = { type: "string" };
    if (random() < 0.3) schema.maxLength = 1 + Math.floor(random() * 12);
    if (random() < 0.2) schema.minLength = 1;
    return schema;
  }
  if (roll < 0.36) {
    const members = [...new Set(Array.from({ length: 2 + Math.floor(random() * 3) }, () => pick(random, ENUM_MEMBERS)))];
    return { type: "string", enum: members };
  }
  if (roll < 0.5) {
    const schema: Schema = { type: "integer" };
    if (random() < 0.5) schema.minimum = Math.floor(random() * 5);
    if (random() < 0.4) schema.maximum = 10 + Math.floor(random() * 100);
    return schema;
  }
  if (roll < 0.58) return random() < 0.5 ? { type: "number" } : { type: "number", minimum: 0 };
  if (roll < 0.68) return { type: "boolean" };
  if (roll < 0.74) return { type: [pick(random, ["string", "integer"]), "null"] };
  if (roll < 0.87 || depth >= 2) {
    const schema: Schema = { type: "array", items: depth >= 2 ? { type: pick(random, ["string", "integer", "boolean"]) } : valueSchema(random, depth + 1) };
    if (random() < 0.4) schema.maxItems = 1 + Math.floor(random() * 4);
    if (random() < 0.3) schema.minItems = 1;
    return schema;
  }
  return objectSchema(random, depth + 1);
}

function objectSchema(random: () => number, depth: number): Schema {
  const count = 1 + Math.floor(random() * (depth === 0 ? 4 : 3));
  const keys = [...new Set(Array.from({ length: count }, () => pick(random, KEYS)))];
  const properties = Object.fromEntries(keys.map((key) => [key, valueSchema(random, depth)]));
  const required = keys.filter(() => random() < 0.6);
  return { type: "object", properties, ...(required.length && { required }), additionalProperties: false };
}

/** `count` tools with random names (distinct) and random input schemas, from `seed`. */
export function randomTools(seed: number, count: number): { name: string; description: string; inputSchema: Schema }[] {
  const random = seededRandom(seed);
  const names = [...NAMES].sort(() => random() - 0.5).slice(0, count);
  return names.map((name) => ({ name, description: `Random tool ${name}.`, inputSchema: objectSchema(random, 0) }));
}
