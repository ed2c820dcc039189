/**
 * A JSON Schema object, as tools declare their parameters. Kept loose on
 * purpose: pages and models send schemas of every draft and dialect.
 */
export type JSONSchema = { readonly [key: string]: unknown };
