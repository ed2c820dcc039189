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
