import { mapCharacterClasses, renameEbnfRules } from "./rename-ebnf-rules.js";
import { withXGrammarMessages, type XGrammar } from "./load-xgrammar.js";

type Schema = Record<string, unknown>;

/** A JSON Schema as compact EBNF rules (`{"a": 1, "b": [2]}`), every rule name prefixed; `root` names its start rule. */
export interface SchemaRules {
  ebnf: string;
  root: string;
}

/** Why xgrammar could not express a schema: where (a JSON-pointer-like path) and which keyword. */
export interface UnsupportedSchema {
  path: string;
  keyword: string;
  detail: string;
}

async function toEbnf(xgrammar: XGrammar, schema: unknown, strict: boolean): Promise<string> {
  const grammar = await xgrammar.Grammar.fromJSONSchema(JSON.stringify(schema), false, -1, [", ", ": "], strict);
  try {
    return grammar.toString();
  } finally {
    grammar.dispose();
  }
}

/**
 * The rules for values valid against `schema`, with Python's `", "` / `": "`
 * spacing and no other whitespace (the layout Qwen writes), no properties
 * beyond the declared ones (xgrammar's strict mode), in the schema's property
 * order. `noAngle`: strings hold no raw `<` (a Qwen3.5 parameter value must
 * not run into its `</parameter>`; `\u003c` still can). Throws
 * {@link UnsupportedSchemaError} when xgrammar cannot express it.
 */
export async function schemaRules(xgrammar: XGrammar, schema: unknown, prefix: string, options: { noAngle?: boolean; strict?: boolean } = {}): Promise<SchemaRules> {
  const result = await withXGrammarMessages(() => toEbnf(xgrammar, boundIntegers(schema), options.strict ?? true));
  if (result.error !== undefined || result.value === undefined) {
    throw new UnsupportedSchemaError(await locateUnsupported(xgrammar, schema, result.messages, result.error));
  }
  let ebnf = result.value.replace(UNBOUNDED_EXPONENT, BOUNDED_EXPONENT);
  // Every negated class that keeps `"` out is one of a string's characters (basic_string_sub, and the
  // bounded-length strings xgrammar writes for minLength / maxLength, as `[^\"\\\r\n]`, which lets raw
  // control characters through: JSON.parse refuses a raw tab in a string). Each keeps U+0000-U+001F
  // out, and `<` with `noAngle`.
  ebnf = mapCharacterClasses(ebnf, (characterClass) => {
    if (!characterClass.startsWith("[^") || !characterClass.includes('\\"')) return characterClass;
    let fixed = characterClass.includes("\\0-") ? characterClass : `[^\\u0000-\\u001f${characterClass.slice(2)}`;
    if (options.noAngle && !fixed.includes("<")) fixed = `${fixed.slice(0, -1)}<]`;
    return fixed;
  });
  ebnf = reprintByteEscapes(ebnf);
  return { ebnf: renameEbnfRules(ebnf, prefix), root: `${prefix}root` };
}

/** xgrammar's exponent digits, and the same bounded to two: `1e999` is JSON but Infinity once read. */
const UNBOUNDED_EXPONENT = "basic_number_5 ::= (([0-9] basic_number_5) | ([0-9]))";
const BOUNDED_EXPONENT = "basic_number_5 ::= (([0-9] [0-9]) | ([0-9]))";

/**
 * xgrammar prints U+0080-U+00FF as `\xHH` and reads a `\x` escape on into a
 * following hex digit (`"\xefc"` is U+0EFC, not "ïc"): its printed grammars
 * are written back with `\u00HH`, which it reads as exactly four digits.
 */
export function reprintByteEscapes(ebnf: string): string {
  return ebnf.replace(/\\\\|\\x([0-9a-fA-F]{2})/g, (match, hex: string | undefined) => (hex ? `\\u00${hex}` : match));
}

/**
 * xgrammar 0.1.27 writes an integer with only a lower bound as `[4-9] | [1-9] [0-9]*`
 * (which takes 2) and one with only an upper bound likewise loosely; with both bounds
 * it is exact. So a one-sided integer bound gets the other side at JavaScript's safe-integer limit.
 */
export function boundIntegers(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(boundIntegers);
  if (!schema || typeof schema !== "object") return schema;
  const copy: Schema = Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, key === "enum" || key === "const" || key === "default" || key === "examples" ? value : boundIntegers(value)]));
  const types = Array.isArray(copy.type) ? copy.type : [copy.type];
  if (types.includes("integer")) {
    const lower = "minimum" in copy || "exclusiveMinimum" in copy;
    const upper = "maximum" in copy || "exclusiveMaximum" in copy;
    if (lower && !upper) copy.maximum = Number.MAX_SAFE_INTEGER;
    if (upper && !lower) copy.minimum = -Number.MAX_SAFE_INTEGER;
  }
  return copy;
}

/** A schema xgrammar cannot express, with where and which keyword. */
export class UnsupportedSchemaError extends Error {
  readonly unsupported: UnsupportedSchema;
  constructor(unsupported: UnsupportedSchema) {
    super(`"${unsupported.keyword}" at ${unsupported.path || "the top"} cannot be constrained: ${unsupported.detail}`);
    this.name = "UnsupportedSchemaError";
    this.unsupported = unsupported;
  }
}

/** Sub-schemas by their path under `schema`. */
function children(schema: Schema): [string, unknown][] {
  const found: [string, unknown][] = [];
  const each = (key: string, value: unknown) => {
    if (value && typeof value === "object" && !Array.isArray(value)) {
      for (const [name, child] of Object.entries(value)) found.push([`${key}/${name}`, child]);
    }
  };
  const list = (key: string, value: unknown) => {
    if (Array.isArray(value)) value.forEach((child, index) => found.push([`${key}/${index}`, child]));
  };
  each("properties", schema.properties);
  each("patternProperties", schema.patternProperties);
  for (const key of ["items", "additionalProperties", "not", "contains", "propertyNames", "if", "then", "else", "additionalItems"]) {
    const value = schema[key];
    if (Array.isArray(value)) list(key, value);
    else if (value && typeof value === "object") found.push([key, value]);
  }
  for (const key of ["prefixItems", "anyOf", "oneOf", "allOf"]) list(key, schema[key]);
  return found.filter(([, child]) => child !== null && typeof child === "object");
}

/** Keywords xgrammar may refuse, tried in this order when its message names none. */
const SUSPECTS = ["pattern", "format", "$ref", "patternProperties", "propertyNames", "dependentSchemas", "dependentRequired", "if", "not", "contains", "uniqueItems", "multipleOf", "allOf", "oneOf", "anyOf", "const", "enum"];

function keywordFromMessage(messages: string, schema: Schema): string | undefined {
  if (/regex|lookbehind|lookahead|backreference/i.test(messages) && "pattern" in schema) return "pattern";
  if (/regex|lookbehind|lookahead|backreference/i.test(messages) && "patternProperties" in schema) return "patternProperties";
  if (/\bref\b|\$ref|reference/i.test(messages) && "$ref" in schema) return "$ref";
  if (/format/i.test(messages) && "format" in schema) return "format";
  return undefined;
}

/**
 * Finds the smallest sub-schema xgrammar refuses (each child tried alone, with
 * the top's `$defs` / `definitions` so that references still resolve), and the
 * keyword that makes it fail: named by xgrammar's message, or the suspect
 * whose removal makes it compile.
 */
async function locateUnsupported(xgrammar: XGrammar, schema: unknown, messages: string[], error: unknown): Promise<UnsupportedSchema> {
  const detail = (messages.find((line) => /\[FATAL\]|error/i.test(line)) ?? String(error)).replace(/^.*?\.cc:\d+:\s*/, "").replace(/^\[FATAL\]\s*/, "").trim();
  if (!schema || typeof schema !== "object") return { path: "", keyword: "schema", detail };
  const top = schema as Schema;
  const definitions = Object.fromEntries(["$defs", "definitions"].filter((key) => key in top).map((key) => [key, top[key]]));
  const fails = async (candidate: unknown) => (await withXGrammarMessages(() => toEbnf(xgrammar, candidate, true))).error !== undefined;
  let node = top;
  let path = "";
  let lines = messages.join("\n");
  for (let depth = 0; depth < 16; depth++) {
    let next: [string, Schema] | undefined;
    for (const [key, child] of children(node)) {
      const attempt = await withXGrammarMessages(() => toEbnf(xgrammar, { ...definitions, ...(child as Schema) }, true));
      if (attempt.error !== undefined) {
        next = [key, child as Schema];
        lines = attempt.messages.join("\n") || lines;
        break;
      }
    }
    if (!next) break;
    path = path ? `${path}/${next[0]}` : next[0];
    node = next[1];
  }
  let keyword = keywordFromMessage(lines, node);
  if (!keyword) {
    for (const suspect of SUSPECTS.filter((key) => key in node)) {
      const { [suspect]: _removed, ...rest } = node;
      if (!(await fails({ ...definitions, ...rest }))) {
        keyword = suspect;
        break;
      }
    }
  }
  return { path, keyword: keyword ?? "schema", detail };
}
