/**
 * A Standard Schema (https://standardschema.dev), as zod 4, valibot and arktype
 * implement it. Declared structurally so core never imports a schema library.
 * `jsonSchema` is the Standard JSON Schema extension; `defineWebTool` needs it
 * to describe the tool to the model.
 */
export interface StandardSchemaLike<Input = unknown, Output = Input> {
  readonly "~standard": {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (value: unknown) => StandardSchemaResult<Output> | Promise<StandardSchemaResult<Output>>;
    readonly types?: { readonly input: Input; readonly output: Output } | undefined;
    readonly jsonSchema?: {
      readonly input: (options: { readonly target: string }) => Record<string, unknown>;
    };
  };
}

/** What a Standard Schema's `validate` returns: a value, or issues. */
export type StandardSchemaResult<Output> =
  | { readonly value: Output; readonly issues?: undefined }
  | { readonly issues: ReadonlyArray<StandardSchemaIssue> };

/** One validation issue: a message and the path to the bad value. */
export interface StandardSchemaIssue {
  readonly message: string;
  readonly path?: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }> | undefined;
}

/** True when `value` carries a Standard Schema `~standard` object with a `validate` function. */
export function isStandardSchema(value: unknown): value is StandardSchemaLike {
  if ((typeof value !== "object" && typeof value !== "function") || value === null) return false;
  const standard = (value as { "~standard"?: unknown })["~standard"];
  return (
    typeof standard === "object" &&
    standard !== null &&
    typeof (standard as { validate?: unknown }).validate === "function"
  );
}

/** Formats a Standard Schema issue path as `items.0.id`; `input` for the root. */
export function formatIssuePath(path: StandardSchemaIssue["path"]): string {
  if (!path || path.length === 0) return "input";
  return path.map((segment) => String(typeof segment === "object" ? segment.key : segment)).join(".");
}
