import { jsonSchema, tool, type ToolSet } from "ai";
import type { ToolDescriptor } from "../session/tool-descriptor.js";

type JSONSchema7 = Parameters<typeof jsonSchema>[0] & object;

/**
 * Page tools as AI SDK tools with no `execute`: the model may call them, and
 * the step ends with the call, which the browser runs. Inputs are not
 * validated here; the page validates each call against its own schema.
 */
export function toAiTools(tools: readonly ToolDescriptor[]): ToolSet {
  // No prototype: a page tool may be named `__proto__`, `constructor` or `toString`.
  const set: ToolSet = Object.create(null) as ToolSet;
  for (const descriptor of tools) {
    set[descriptor.name] = tool({
      description: descriptor.description,
      inputSchema: jsonSchema(descriptor.inputSchema as JSONSchema7),
      ...(descriptor.outputSchema !== undefined && { outputSchema: jsonSchema(descriptor.outputSchema as JSONSchema7) }),
    });
  }
  return set;
}
