import type { ToolDescriptor } from "./tool-descriptor.js";
import type { JSONSchema } from "./json-schema.js";
import { checkSchemaShape } from "./check-schema-shape.js";
import { getModelContext } from "./model-context.js";
import { WebAgentsError } from "./web-agents-error.js";

const warned = new Set<string>();

// The titles WebMCP gave the page's tools when they were last read, for the chat's
// words about a call of a tool another script registered (its own tools have theirs).
const TITLES = Symbol.for("webmcp-agents.page-tool-titles");
function titles(): Map<string, string> {
  const global = globalThis as { [TITLES]?: Map<string, string> };
  return (global[TITLES] ??= new Map());
}

/** The title the page's WebMCP gave tool `name` when the page's tools were last read (`readPageTools`), if any. */
export function pageToolTitle(name: string): string | undefined {
  return titles().get(name);
}

/**
 * The page's WebMCP tools as the model sees them: `getTools()` normalized to
 * `{ name, description, inputSchema, title?, outputSchema? }`, in the page's
 * order. Entries are read property by property, so dictionaries (Chrome 159
 * and the polyfill) and Chrome 160's `Tool` interface objects (attributes on
 * the prototype, nothing to spread or clone) read alike.
 *
 * A schema given as a JSON string (older Chromium) is parsed; a missing or
 * `null` one becomes `{ type: "object", properties: {} }`. An `outputSchema`
 * that is not a JSON Schema object is left out. An entry without a name, a
 * string description or a usable schema (not an object, or not valid JSON
 * Schema: the warning names the keyword's path, as `defineWebTool`'s
 * `TypeError` does), or a second tool of the same name, is skipped with one
 * `console.warn` naming it. Resolves `[]` where there is
 * no WebMCP (outside a browser, an insecure context); rejects only when
 * `getTools()` itself fails.
 */
export async function readPageTools(): Promise<ToolDescriptor[]> {
  let context;
  try {
    context = getModelContext();
  } catch (error) {
    if (WebAgentsError.isInstance(error)) return [];
    throw error;
  }
  const tools: ToolDescriptor[] = [];
  const names = new Set<string>();
  for (const entry of await context.getTools()) {
    const tool = toToolDescriptor(entry);
    if (!tool) continue;
    if (names.has(tool.name)) {
      warnOnce(`[web-agents] Skipping a second page tool named "${tool.name}": the model could not tell them apart.`);
      continue;
    }
    names.add(tool.name);
    tools.push(tool);
  }
  titles().clear();
  for (const tool of tools) if (tool.title !== undefined) titles().set(tool.name, tool.title);
  return tools;
}

/**
 * One `getTools()` entry as a {@link ToolDescriptor}, or `undefined` (after
 * one `console.warn`) when it does not have that shape.
 */
export function toToolDescriptor(entry: unknown): ToolDescriptor | undefined {
  // Each property read by name: Chrome 160's Tool objects keep them on the prototype.
  const tool = (typeof entry === "object" && entry !== null ? entry : {}) as Record<string, unknown>;
  const name = tool.name;
  const description = tool.description;
  const inputSchema = tool.inputSchema;
  if (typeof name !== "string" || name === "") {
    warnOnce(`[web-agents] Skipping a page tool without a name (keys: ${describeKeys(entry)}).`);
    return undefined;
  }
  if (typeof description !== "string") {
    warnOnce(`[web-agents] Skipping the page tool "${name}": its description is not a string.`);
    return undefined;
  }
  const schema = readSchema(name, "inputSchema", inputSchema ?? { type: "object", properties: {} });
  if (!schema) return undefined;
  const descriptor: ToolDescriptor = { name, description, inputSchema: schema };
  const title = tool.title;
  if (typeof title === "string" && title.trim() !== "") descriptor.title = title;
  // A bad outputSchema is left out (with its warning); the tool still runs.
  const outputSchema = tool.outputSchema == null ? undefined : readSchema(name, "outputSchema", tool.outputSchema);
  if (outputSchema) descriptor.outputSchema = outputSchema;
  return descriptor;
}

/** A schema given as an object or as JSON text (older Chromium), checked; `undefined` after one warning when it is no JSON Schema. */
function readSchema(name: string, key: "inputSchema" | "outputSchema", value: unknown): JSONSchema | undefined {
  let schema = value;
  if (typeof value === "string") {
    try {
      schema = JSON.parse(value);
    } catch {
      schema = undefined;
    }
  }
  const leaving = key === "inputSchema" ? "Skipping" : "Leaving out the outputSchema of";
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) {
    warnOnce(`[web-agents] ${leaving} the page tool "${name}": its ${key} is not a JSON Schema object.`);
    return undefined;
  }
  try {
    checkSchemaShape(schema, `the page tool "${name}"`, key);
  } catch (error) {
    warnOnce(`[web-agents] ${leaving} ${(error as Error).message}`);
    return undefined;
  }
  return schema as JSONSchema;
}

// getTools() is read after every tool call; one warning per problem is enough.
function warnOnce(message: string): void {
  if (warned.has(message)) return;
  warned.add(message);
  console.warn(message);
}

function describeKeys(entry: unknown): string {
  return typeof entry === "object" && entry !== null ? Object.keys(entry).join(", ") || "none" : typeof entry;
}
