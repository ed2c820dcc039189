import Ajv2020 from "ajv/dist/2020.js";

/**
 * An independent JSON Schema 2020-12 validator for the constraint's checks
 * (ajv): the runtime validates tool input with @cfworker/json-schema, so a
 * bug the two shared could not hide here.
 */
export function jsonSchemaValidator(): { valid(schema: unknown, value: unknown): boolean; errors(): string } {
  // ajv's CommonJS build: the class is its default export, or the module itself under some loaders.
  const Ajv = ((Ajv2020 as unknown as { default?: typeof Ajv2020 }).default ?? Ajv2020) as typeof Ajv2020;
  const ajv = new Ajv({ strict: false, allErrors: true });
  return {
    valid: (schema, value) => ajv.validate(schema as object, value) as boolean,
    errors: () => ajv.errorsText(ajv.errors),
  };
}
