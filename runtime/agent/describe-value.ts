/**
 * A short description of a value for an error message: strings quoted,
 * numbers as written, everything else by its kind ("an object", "null").
 * Never the whole value: a config can hold anything.
 */
export function describeValue(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value.length > 80 ? `${value.slice(0, 77)}...` : value);
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint") return String(value);
  if (value === null) return "null";
  if (value === undefined) return "undefined";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "function") return "a function";
  if (typeof value === "symbol") return "a symbol";
  return "an object";
}
