/**
 * JSON with Python's `json.dumps` spacing (`", "` and `": "`), as Qwen3
 * writes a call's JSON and its chat template renders past calls; the
 * tool-call constraint holds a Hermes call to this layout too.
 */
export function toPythonStyleJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(toPythonStyleJson).join(", ")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value).map(([key, entry]) => `${JSON.stringify(key)}: ${toPythonStyleJson(entry)}`);
    return `{${entries.join(", ")}}`;
  }
  return JSON.stringify(value) ?? "null";
}
