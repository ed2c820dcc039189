import { Validator } from "@cfworker/json-schema";

/**
 * What the Prompt API does with `responseConstraint` (the explainer,
 * "Structured output with JSON schema or RegExp constraints"), played by
 * checking the double's scripted reply instead of steering a model: a value
 * that is neither a RegExp nor an object is a `TypeError`; a schema using a
 * feature the browser does not support a `NotSupportedError`; a reply the
 * browser could not make fit a `SyntaxError`. A real browser constrains its
 * model; a script that breaks the constraint is a test's mistake, and fails
 * the same way a browser that cannot comply does.
 */
export function checkConstraintShape(constraint: unknown, unsupportedKeywords: readonly string[]): void {
  if (constraint === undefined || constraint instanceof RegExp) return;
  if (typeof constraint !== "object" || constraint === null) throw new TypeError("responseConstraint must be a JSON Schema object or a RegExp.");
  const keyword = findKeyword(constraint, new Set(unsupportedKeywords));
  if (keyword !== undefined) throw new DOMException(`The JSON Schema feature "${keyword}" is not supported.`, "NotSupportedError");
}

function findKeyword(schema: unknown, unsupported: ReadonlySet<string>): string | undefined {
  if (unsupported.size === 0 || typeof schema !== "object" || schema === null) return undefined;
  if (Array.isArray(schema)) {
    for (const item of schema) {
      const found = findKeyword(item, unsupported);
      if (found) return found;
    }
    return undefined;
  }
  for (const [key, value] of Object.entries(schema)) {
    if (unsupported.has(key)) return key;
    // `properties` maps names (which may spell a keyword) to schemas: look at the schemas only.
    const found = key === "properties" && typeof value === "object" && value !== null ? findKeyword(Object.values(value), unsupported) : findKeyword(value, unsupported);
    if (found) return found;
  }
  return undefined;
}

/** Whether `reply` is one the browser could have produced under `constraint`; throws the API's `SyntaxError` if not. */
export function enforceConstraint(reply: string, constraint: unknown): void {
  if (constraint === undefined) return;
  if (constraint instanceof RegExp) {
    if (!new RegExp(constraint.source, constraint.flags.replace("g", "")).test(reply)) throw unsatisfiable();
    return;
  }
  let value: unknown;
  try {
    value = JSON.parse(reply);
  } catch {
    throw unsatisfiable();
  }
  const result = new Validator(structuredClone(constraint) as Record<string, unknown>, "2020-12", false).validate(value);
  if (!result.valid) throw unsatisfiable(result.errors.map((error) => `${error.instanceLocation}: ${error.error}`).join("; "));
}

const unsatisfiable = (why?: string) => new DOMException(`The model could not produce a response that matches the constraint${why ? ` (${why})` : ""}.`, "SyntaxError");
