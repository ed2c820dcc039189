import type { JSONSchema } from "./json-schema.js";
import { formatIssuePath, type StandardSchemaLike } from "./standard-schema.js";

/** The input to hand the tool, or why it does not fit. */
export type ToolInputCheck = { ok: true; value: unknown } | { ok: false; message: string };

const MAX_LISTED = 5;
type CheckJsonSchemaModule = typeof import("./check-json-schema.js");
let loading: Promise<CheckJsonSchemaModule> | undefined;
let loaded: CheckJsonSchemaModule | undefined;

/**
 * The JSON Schema check and its validator (~10 KB gzip) load on the first
 * call that needs them, not with the page: `npm run size` counts the first
 * render. A failed load is forgotten, so the next call tries again.
 */
function loadCheck(): Promise<CheckJsonSchemaModule> {
  loading ??= import("./check-json-schema.js").then(
    (module) => (loaded = module),
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
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
  if (!schema) return { ok: true, value };
  let check = loaded;
  try {
    check ??= await loadCheck();
  } catch {
    return { ok: true, value };
  }
  const problems = check.checkJsonSchema(schema, value);
  return problems === null || problems.length === 0 ? { ok: true, value } : fail(tool, problems);
}

function fail(tool: string, problems: string[]): ToolInputCheck {
  const listed = problems.slice(0, MAX_LISTED).map((problem) => `- ${problem}`);
  if (problems.length > MAX_LISTED) listed.push(`- and ${problems.length - MAX_LISTED} more`);
  return {
    ok: false,
    message: `The input for ${tool} does not match its schema:\n${listed.join("\n")}\nFix these and call ${tool} again.`,
  };
}

function describeType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return `a ${typeof value}`;
}
