import { isWebTool, type WebTool } from "./define-web-tool.js";
import { getModelContext, type ModelContextToolDefinition } from "./model-context.js";
import { runWebTool } from "./run-web-tool.js";
import { WebAgentsError } from "./web-agents-error.js";
import { addRegisteredWebTool, findRegisteredWebTool } from "./web-tool-registry.js";

/** What `registerWebTool` takes besides the tool. */
export interface RegisterWebToolOptions {
  /** Aborting unregisters the tool. Default: registered until the page unloads. */
  signal?: AbortSignal;
}

/**
 * Registers a tool from `defineWebTool` on the page's `document.modelContext`
 * (native WebMCP, else the polyfill), so the chat's agent and any other
 * WebMCP agent (the browser's own) can call it.
 *
 * `callModelContextTool` runs a tool registered here directly, with the real
 * signal, validation and error messages. Another agent calling it through
 * WebMCP gets the same validation and an MCP result (`isError` on failure);
 * its context signal never aborts.
 *
 * Resolves once the tool is registered; resolves without registering when
 * `signal` is already aborted or aborts meanwhile. Rejects with a
 * `WebAgentsError` code `duplicate_tool` when the page already has a tool of
 * that name, `no_document` outside a browser, and a `TypeError` for a tool not
 * from `defineWebTool`.
 */
export async function registerWebTool(tool: WebTool, options: RegisterWebToolOptions = {}): Promise<void> {
  if (!isWebTool(tool)) {
    throw new TypeError("registerWebTool: pass a tool from defineWebTool({ name, description, execute }).");
  }
  const { signal } = options;
  if (signal?.aborted) return;
  const context = getModelContext();
  if (findRegisteredWebTool(tool.name)) throw duplicate(tool.name);
  try {
    await context.registerTool(toDefinition(tool), signal ? { signal } : {});
  } catch (error) {
    if (signal?.aborted) return;
    if (isDomException(error, "InvalidStateError")) throw duplicate(tool.name, error);
    throw error;
  }
  if (signal?.aborted) return;
  const remove = addRegisteredWebTool(tool);
  signal?.addEventListener("abort", remove, { once: true });
}

function toDefinition(tool: WebTool): ModelContextToolDefinition {
  const definition: ModelContextToolDefinition = {
    name: tool.name,
    description: tool.description,
    inputSchema: tool.inputSchema,
    execute: (input) => runWebTool(tool, input, { timeout: Infinity }),
  };
  if (tool.title !== undefined) definition.title = tool.title;
  if (tool.outputSchema !== undefined) definition.outputSchema = tool.outputSchema;
  if (tool.annotations !== undefined) definition.annotations = webMcpAnnotations(tool.annotations);
  return definition;
}

/**
 * The annotations as WebMCP reads them: an MCP-style `destructiveHint: true`
 * is also `consequentialHint: true` unless the tool says otherwise, so the
 * browser's own agent, which knows only WebMCP's names, asks before it too.
 */
function webMcpAnnotations(annotations: NonNullable<WebTool["annotations"]>): NonNullable<WebTool["annotations"]> {
  if (annotations.destructiveHint === true && annotations.consequentialHint === undefined) return { ...annotations, consequentialHint: true };
  return annotations;
}

function duplicate(name: string, cause?: unknown): WebAgentsError {
  const said = cause instanceof Error ? ` (the browser said: ${cause.message})` : "";
  return new WebAgentsError(
    "duplicate_tool",
    `A tool named "${name}" is already registered on this page${said}. ` +
      `Give one of them another name, or abort the first registration's signal before registering it again.`,
    { cause },
  );
}

function isDomException(error: unknown, name: string): boolean {
  return typeof error === "object" && error !== null && (error as { name?: unknown }).name === name;
}
