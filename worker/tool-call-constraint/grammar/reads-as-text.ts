type Schema = Record<string, unknown>;

/** The type names vLLM's `qwen3_coder` (and models/qwen35-parameter-value.ts) read as text. */
const STRING_TYPES = /^(string|str|text|varchar|char|enum)$/;

/**
 * Whether the Qwen3.5 parser reads a `<parameter=…>` value of this schema as
 * raw text (its `typeOf` in models/qwen35-parameter-value.ts: `type`, the
 * first non-null type of a list, of `anyOf` / `oneOf`, or `enum` without a
 * type). Such a value is written without quotes; any other is JSON.
 */
export function readsAsText(schema: Schema | undefined): boolean {
  if (!schema) return true;
  const type = schema.type;
  if (typeof type === "string") return STRING_TYPES.test(type.toLowerCase());
  if (Array.isArray(type)) {
    const first = type.find((option) => option !== "null");
    return typeof first === "string" && STRING_TYPES.test(first.toLowerCase());
  }
  const options = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (Array.isArray(options)) {
    const first = options.find((option) => option && option.type !== "null");
    return first ? readsAsText(first) : false;
  }
  return Array.isArray(schema.enum);
}

/**
 * What the parser reads a value as (models/qwen35-parameter-value.ts's
 * `typeOf`): a type list's, `anyOf`'s or `oneOf`'s first non-null
 * alternative (its siblings kept), else the schema itself. A value is
 * written as that alternative: stricter than the union, never looser.
 */
export function readAlternative(schema: Schema): Schema {
  if (Array.isArray(schema.type)) {
    const type = schema.type.find((option) => option !== "null");
    return type === undefined ? schema : { ...schema, type };
  }
  const options = (Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : undefined) as unknown[] | undefined;
  if (!options) return schema;
  const { anyOf: _anyOf, oneOf: _oneOf, ...siblings } = schema;
  const option = options.find((candidate): candidate is Schema => !!candidate && typeof candidate === "object" && (candidate as Schema).type !== "null");
  return option ? { ...siblings, ...option } : schema;
}

/** Whether the parser reads null / None as null for this schema (a null type or alternative). */
export function isNullable(schema: Schema): boolean {
  if (Array.isArray(schema.type)) return schema.type.includes("null");
  const options = (Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : []) as unknown[];
  return options.some((option) => !!option && typeof option === "object" && (option as Schema).type === "null");
}

/**
 * Whether any text is a value the parser reads as valid-typed, though the
 * schema is not read as text: no type at all (models/qwen35-parameter-value.ts
 * reads JSON, else a Python literal, else the text), or a string type that
 * is not the first (the first type is tried, and text it does not parse as
 * stays a string: `type: ["integer", "string"]` reads `12` as 12 and
 * `twelve` as "twelve"). Such a value is admitted as any text, unbounded:
 * holding it to JSON would refuse a string the schema allows.
 */
export function readsAsLooseText(schema: Schema): boolean {
  if (readsAsText(schema)) return false;
  const options = (Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : undefined) as unknown[] | undefined;
  if (options) return options.some((option) => !!option && typeof option === "object" && ((option as Schema).type === undefined || (Array.isArray((option as Schema).type) ? ((option as Schema).type as unknown[]).includes("string") : (option as Schema).type === "string")));
  if (Array.isArray(schema.type)) return schema.type.includes("string");
  return schema.type === undefined && !Array.isArray(schema.enum) && !("const" in schema);
}
