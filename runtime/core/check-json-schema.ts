import { Validator, type OutputUnit, type SchemaDraft } from "@cfworker/json-schema";
import type { JSONSchema } from "./json-schema.js";

// Wrapper errors that only repeat what a more precise error below them says.
const WRAPPER_KEYWORDS = new Set(["properties", "items", "prefixItems", "allOf", "$ref", "false"]);
const validators = new WeakMap<object, Validator | null>();

/**
 * Checks `value` against the JSON Schema `schema`: the problems, one line
 * each (none when it fits), or `null` when the schema cannot be enforced (a
 * schema the validator refuses, or a `$ref` it cannot resolve). Loaded by
 * `validate-tool-input.ts` on the first tool call, with its validator.
 */
export function checkJsonSchema(schema: JSONSchema, value: unknown): string[] | null {
  const validator = validatorFor(schema);
  if (!validator) return null;
  let result: ReturnType<Validator["validate"]>;
  try {
    result = validator.validate(value);
  } catch {
    // A `$ref` the validator cannot resolve only fails once reached; the tool checks its own input.
    return null;
  }
  if (result.valid) return [];
  const precise = result.errors.filter((error) => !WRAPPER_KEYWORDS.has(error.keyword));
  return (precise.length > 0 ? precise : result.errors).map(formatOutputUnit);
}

function validatorFor(schema: JSONSchema): Validator | null {
  let validator = validators.get(schema);
  if (validator !== undefined) return validator;
  try {
    // The validator annotates the schema it is given; tool schemas are frozen.
    validator = new Validator(structuredClone(schema) as Record<string, unknown>, draftOf(schema), false);
  } catch {
    validator = null;
  }
  validators.set(schema, validator);
  return validator;
}

function draftOf(schema: JSONSchema): SchemaDraft {
  const id = typeof schema.$schema === "string" ? schema.$schema : "";
  if (id.includes("draft-04")) return "4";
  if (id.includes("draft-07") || id.includes("draft-06")) return "7";
  if (id.includes("2019-09")) return "2019-09";
  return "2020-12";
}

function formatOutputUnit(error: OutputUnit): string {
  const path = error.instanceLocation.replace(/^#\/?/, "").split("/").filter(Boolean).join(".");
  return `${path || "input"}: ${error.error}`;
}
