import type { ToolDescriptor } from "./tool-descriptor.js";
import type { JSONSchema } from "./json-schema.js";
import { checkSchemaShape } from "./check-schema-shape.js";
import { getModelContext } from "./model-context.js";
import { WebAgentsError } from "./web-agents-error.js";

const warned = new Set<string>();

/**
 * The page's WebMCP tools as the model sees them: `getTools()` normalized to
 * `{ name, description, inputSchema }`, in the page's order.
 *
 * A schema given as a JSON string (older Chromium) is parsed; a missing one
 * becomes `{ type: "object", properties: {} }`. An entry without a name, a
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
  return tools;
}

/**
 * One `getTools()` entry as a {@link ToolDescriptor}, or `undefined` (after
 * one `console.warn`) when it does not have that shape.
 */
export function toToolDescriptor(entry: unknown): ToolDescriptor | undefined {
  const { name, description, inputSchema } = (typeof entry === "object" && entry !== null ? entry : {}) as Record<
    string,
    unknown
  >;
  if (typeof name !== "string" || name === "") {
    warnOnce(`[web-agents] Skipping a page tool without a name (keys: ${describeKeys(entry)}).`);
    return undefined;
  }
  if (typeof description !== "string") {
    warnOnce(`[web-agents] Skipping the page tool "${name}": its description is not a string.`);
    return undefined;
  }
  const schema = readSchema(inputSchema);
  if (!schema) {
    warnOnce(`[web-agents] Skipping the page tool "${name}": its inputSchema is not a JSON Schema object.`);
    return undefined;
  }
  try {
    checkSchemaShape(schema, `the page tool "${name}"`);
  } catch (error) {
    warnOnce(`[web-agents] Skipping ${(error as Error).message}`);
    return undefined;
  }
  return { name, description, inputSchema: schema };
}

function readSchema(value: unknown): JSONSchema | undefined {
  if (value === undefined || value === null) return { type: "object", properties: {} };
  let schema = value;
  if (typeof value === "string") {
    try {
      schema = JSON.parse(value);
    } catch {
      return undefined;
    }
  }
  return typeof schema === "object" && schema !== null && !Array.isArray(schema) ? (schema as JSONSchema) : undefined;
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
