import type { OutputUnit, SchemaDraft, Validator } from "@cfworker/json-schema";
import type { JSONSchema } from "./json-schema.js";
import { formatIssuePath, type StandardSchemaLike } from "./standard-schema.js";

/** The input to hand the tool, or why it does not fit. */
export type ToolInputCheck = { ok: true; value: unknown } | { ok: false; message: string };

const MAX_LISTED = 5;
// Wrapper errors that only repeat what a more precise error below them says.
const WRAPPER_KEYWORDS = new Set(["properties", "items", "prefixItems", "allOf", "$ref", "false"]);
const validators = new WeakMap<object, Validator | null>();
type JsonSchemaModule = typeof import("@cfworker/json-schema");
let loadingValidator: Promise<JsonSchemaModule> | undefined;
let loadedValidator: JsonSchemaModule | undefined;

/**
 * The JSON Schema validator (~10 KB gzip) loads on the first call that needs
 * it, not with the page: `npm run size` counts the first render. A failed
 * load is forgotten, so the next call tries again.
 */
function loadValidator(): Promise<JsonSchemaModule> {
  loadingValidator ??= import("@cfworker/json-schema").then(
    (module) => (loadedValidator = module),
    (error: unknown) => {
      loadingValidator = undefined;
      throw error;
    },
  );
  return loadingValidator;
}

/**
 * Checks a tool call's input: `undefined` counts as `{}`, anything but a
 * plain object fails, then `standard` validates it when given (its output
 * becomes the value handed to the tool), else the JSON Schema `schema`.
 * A JSON Schema the validator cannot use (an unresolvable `$ref`), or one
 * met while the validator's module fails to load, is not enforced: the tool
 * checks its own input.
 */
export async function validateToolInput(
  tool: string,
  input: unknown,
  schema: JSONSchema | undefined,
  standard?: StandardSchemaLike,
): Promise<ToolInputCheck> {
  const value = input === undefined ? {} : input;
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return {
      ok: false,
      message: `${tool} takes a JSON object of named arguments, not ${describeType(value)}. Call it again with an object.`,
    };
  }
  if (standard) {
    const result = await standard["~standard"].validate(value);
    if (!result.issues) return { ok: true, value: result.value };
    return fail(tool, result.issues.map((issue) => `${formatIssuePath(issue.path)}: ${issue.message}`));
  }
  const validator = schema ? await validatorFor(schema) : null;
  if (!validator) return { ok: true, value };
  let result: ReturnType<Validator["validate"]>;
  try {
    result = validator.validate(value);
  } catch {
    // A `$ref` the validator cannot resolve only fails once reached; the tool checks its own input.
    return { ok: true, value };
  }
  if (result.valid) return { ok: true, value };
  const precise = result.errors.filter((error) => !WRAPPER_KEYWORDS.has(error.keyword));
  return fail(tool, (precise.length > 0 ? precise : result.errors).map(formatOutputUnit));
}

function fail(tool: string, problems: string[]): ToolInputCheck {
  const listed = problems.slice(0, MAX_LISTED).map((problem) => `- ${problem}`);
  if (problems.length > MAX_LISTED) listed.push(`- and ${problems.length - MAX_LISTED} more`);
  return {
    ok: false,
    message: `The input for ${tool} does not match its schema:\n${listed.join("\n")}\nFix these and call ${tool} again.`,
  };
}

async function validatorFor(schema: JSONSchema): Promise<Validator | null> {
  let validator = validators.get(schema);
  if (validator !== undefined) return validator;
  let module = loadedValidator;
  try {
    module ??= await loadValidator();
  } catch {
    return null;
  }
  try {
    // The validator annotates the schema it is given; tool schemas are frozen.
    validator = new module.Validator(structuredClone(schema) as Record<string, unknown>, draftOf(schema), false);
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

function describeType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return `a ${typeof value}`;
}
