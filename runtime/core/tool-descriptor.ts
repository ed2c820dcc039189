import type { JSONSchema } from "./json-schema.js";

/** A page tool as the model sees it. */
export interface ToolDescriptor {
  /** The tool's name. */
  name: string;
  /** What it does; the model decides from this. */
  description: string;
  /** Its parameters as JSON Schema. */
  inputSchema: JSONSchema;
  /** A human-readable name, when the page gave one (WebMCP's `title`). */
  title?: string;
  /** The JSON Schema of its result's `structuredContent`, when the page gave one (WebMCP's `outputSchema`). */
  outputSchema?: JSONSchema;
}
