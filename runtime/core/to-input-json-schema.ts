import type { JSONSchema } from "./json-schema.js";
import { checkSchemaShape } from "./check-schema-shape.js";
import { isStandardSchema } from "./standard-schema.js";

/**
 * A tool's `inputSchema` option as a deeply frozen JSON Schema copy: the
 * default `{ type: "object", properties: {} }` when `undefined`, a Standard
 * Schema converted to draft 2020-12. Throws a `TypeError`, prefixed with
 * `where`, that names the fix for anything else, and the path of a keyword
 * that is not valid JSON Schema (`checkSchemaShape`).
 */
export function toInputJsonSchema(inputSchema: unknown, where: string): JSONSchema {
  if (inputSchema === undefined) return deepFreeze({ type: "object", properties: {} });
  let schema: unknown = inputSchema;
  if (isStandardSchema(inputSchema)) {
    const convert = inputSchema["~standard"].jsonSchema?.input;
    if (typeof convert !== "function") {
      throw new TypeError(
        `${where}: inputSchema is a Standard Schema that cannot emit JSON Schema (no ~standard.jsonSchema). ` +
          `Use zod 4.2 or later, or pass a JSON Schema object.`,
      );
    }
    try {
      schema = convert({ target: "draft-2020-12" });
    } catch (error) {
      throw new TypeError(
        `${where}: inputSchema could not be converted to JSON Schema (${describeError(error)}). ` +
          `Keep the input to types JSON can carry (no transforms, dates or bigints).`,
        { cause: error },
      );
    }
  }
  if (!isObject(schema)) throw new TypeError(`${where}: inputSchema must be a JSON Schema object or a zod schema.`);
  const type = (schema as { type?: unknown }).type;
  if (type !== undefined && type !== "object") {
    throw new TypeError(`${where}: inputSchema must describe an object (type: "object"); WebMCP tools take named arguments.`);
  }
  return frozenCopy(schema, where, "inputSchema");
}

/**
 * A tool's `outputSchema` (the JSON Schema of its `structuredContent`) as a
 * deeply frozen copy. Throws a `TypeError`, prefixed with `where`, for
 * anything that is not a plain JSON Schema object.
 */
export function toOutputJsonSchema(outputSchema: unknown, where: string): JSONSchema {
  if (!isObject(outputSchema)) throw new TypeError(`${where}: outputSchema must be a JSON Schema object.`);
  return frozenCopy(outputSchema, where, "outputSchema");
}

const isObject = (value: unknown): value is object => typeof value === "object" && value !== null && !Array.isArray(value);

function frozenCopy(schema: object, where: string, key: "inputSchema" | "outputSchema"): JSONSchema {
  let plain: JSONSchema;
  try {
    plain = JSON.parse(JSON.stringify(schema)) as JSONSchema;
  } catch (error) {
    throw new TypeError(`${where}: ${key} must be plain JSON (${describeError(error)}).`, { cause: error });
  }
  checkSchemaShape(plain, where, key);
  return deepFreeze(plain);
}

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
