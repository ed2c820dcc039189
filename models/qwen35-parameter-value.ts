/**
 * One `<parameter=KEY>` value of a Qwen3.5 XML tool call, typed by the tool's
 * JSON Schema as vLLM's `qwen3_coder` parser does (research-qwen35.md, 1.2):
 * values are raw text, and the schema says what they are. A key the schema
 * does not know stays a string.
 */
type Schema = Record<string, unknown>;

const STRING_TYPES = /^(string|str|text|varchar|char|enum)$/;
const INTEGER_TYPES = /^(int|uint|long|short|unsigned)/;
const NUMBER_TYPES = /^(num|float)/;
const BOOLEAN_TYPES = /^(boolean|bool|binary)$/;
const JSON_TYPES = /^(object|array|arr|dict|list)/;

/** The schema type a value of `schema` is read as: its `type`, or the first non-null option of `anyOf`/`oneOf`. */
function typeOf(schema: Schema | undefined): { type: string | undefined; nullable: boolean } {
  if (!schema) return { type: undefined, nullable: false };
  const type = schema.type;
  if (typeof type === "string") return { type: type.toLowerCase(), nullable: type === "null" };
  if (Array.isArray(type)) {
    const first = type.find((option) => option !== "null");
    return { type: typeof first === "string" ? first.toLowerCase() : undefined, nullable: type.includes("null") };
  }
  const options = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (Array.isArray(options)) {
    const nullable = options.some((option) => option?.type === "null");
    const first = options.find((option) => option && option.type !== "null");
    return { type: typeOf(first).type, nullable };
  }
  if (Array.isArray(schema.enum)) return { type: "enum", nullable: schema.enum.includes(null) };
  return { type: undefined, nullable: false };
}

/**
 * Python's literal syntax, read as JSON: `{'k': 'v'}`, `True`, `None`,
 * tuples as lists. Undefined when it is not one.
 */
function pythonLiteral(text: string): unknown {
  let json = "";
  let index = 0;
  while (index < text.length) {
    const char = text[index]!;
    if (char === "'" || char === '"') {
      const quote = char;
      let value = "";
      index++;
      while (index < text.length && text[index] !== quote) {
        if (text[index] === "\\" && index + 1 < text.length) {
          const next = text[index + 1]!;
          value += next === "n" ? "\n" : next === "t" ? "\t" : next;
          index += 2;
        } else value += text[index++];
      }
      if (index >= text.length) return undefined;
      index++;
      json += JSON.stringify(value);
      continue;
    }
    const word = /^(True|False|None)\b/.exec(text.slice(index));
    if (word) {
      json += word[1] === "True" ? "true" : word[1] === "False" ? "false" : "null";
      index += word[1]!.length;
      continue;
    }
    json += char === "(" ? "[" : char === ")" ? "]" : char;
    index++;
  }
  try {
    return JSON.parse(json.replace(/,\s*([\]}])/g, "$1"));
  } catch {
    return undefined;
  }
}

/** Reads a value as JSON, then as a Python literal; undefined when neither. */
function structured(text: string): unknown {
  try {
    const value: unknown = JSON.parse(text);
    // A JSON string that holds a Python repr (the model double-encoded it) is read once more.
    if (typeof value === "string") return structured(value) ?? value;
    return value;
  } catch {
    return pythonLiteral(text);
  }
}

/**
 * `raw` (one leading and one trailing newline removed) as the type the
 * tool's schema gives `key`. Numbers that do not parse, and JSON that does
 * not, stay strings: the tool's own validation then reports them.
 */
export function convertParameterValue(raw: string, schema: Schema | undefined): unknown {
  const value = raw.replace(/^\n/, "").replace(/\n$/, "");
  const { type, nullable } = typeOf(schema);
  if (type === undefined) return schema ? (structured(value) ?? value) : value;
  // A nullable type reads null/None as null; a plain string keeps the text "null".
  if (nullable && /^(null|none)$/i.test(value.trim())) return null;
  if (STRING_TYPES.test(type)) return value;
  if (/^(null|none)$/i.test(value.trim())) return null;
  if (type === "null") return value;
  if (INTEGER_TYPES.test(type)) return /^[-+]?\d+$/.test(value.trim()) ? Number.parseInt(value.trim(), 10) : value;
  if (NUMBER_TYPES.test(type)) {
    const number = Number(value.trim());
    return value.trim() !== "" && Number.isFinite(number) ? number : value;
  }
  if (BOOLEAN_TYPES.test(type)) return value.trim().toLowerCase() === "true";
  if (JSON_TYPES.test(type)) return structured(value) ?? value;
  return structured(value) ?? value;
}
