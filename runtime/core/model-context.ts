import { initializeWebMCPPolyfill } from "@mcp-b/webmcp-polyfill";
import { keepAnnotationsOnPolyfill } from "./polyfill-annotations.js";
import { WebAgentsError } from "./web-agents-error.js";

/** A tool as `registerTool` takes it. */
export interface ModelContextToolDefinition {
  name: string;
  title?: string;
  description: string;
  inputSchema?: object;
  /** The JSON Schema of the result's `structuredContent` (Chrome 159+). */
  outputSchema?: object;
  annotations?: object;
  execute: (input: unknown) => unknown;
}

/**
 * The part of WebMCP's `document.modelContext` this package uses, native or
 * polyfilled. Native and polyfill differ on `executeTool`'s input: native takes
 * an object, the polyfill a JSON string (see `isNativeModelContext`).
 */
export interface ModelContext extends EventTarget {
  registerTool(tool: ModelContextToolDefinition, options?: { signal?: AbortSignal }): Promise<void>;
  /**
   * Raw entries, as the browser reports them: dictionaries up to Chrome 159,
   * `Tool` interface objects from Chrome 160 (attributes on the prototype,
   * `null` for an empty schema or annotations, `source` for `window`); read
   * every property by name. See `readPageTools` for the normalized list.
   */
  getTools(): Promise<unknown[]>;
  /** `tool` must be an entry `getTools()` returned (Chrome 160 finds the tool by its internal id), never a copy. */
  executeTool(tool: object, input: unknown, options?: { signal?: AbortSignal }): Promise<unknown>;
}

const POLYFILL_MARKER = "__isWebMCPPolyfill";

/**
 * The page's `document.modelContext`: the browser's own when it has WebMCP,
 * otherwise the one `@mcp-b/webmcp-polyfill` installs (idempotent; it never
 * replaces a native one).
 *
 * Throws a `WebAgentsError` with code `no_document` outside a browser, and
 * `no_webmcp` where the polyfill cannot install (an insecure context).
 */
export function getModelContext(): ModelContext {
  if (typeof document === "undefined") {
    throw new WebAgentsError(
      "no_document",
      "WebMCP needs a browser page, and document is not defined here. " +
        "Register and call page tools from code that runs in the browser (an effect or an event handler), not on the server.",
    );
  }
  if (!readModelContext()) initializeWebMCPPolyfill();
  const context = readModelContext();
  if (!context) {
    throw new WebAgentsError(
      "no_webmcp",
      "document.modelContext is not available and the WebMCP polyfill could not install it. " +
        "Serve the page from https or localhost: WebMCP needs a secure context.",
    );
  }
  // The polyfill, ours or another script's, is kept from dropping annotations from here on
  // (tools registered on it before keep only what it kept).
  if (!isNativeModelContext(context)) keepAnnotationsOnPolyfill(context);
  return context;
}

/**
 * True when `context` (default: the page's current `document.modelContext`,
 * not installing the polyfill) is the browser's own WebMCP, false for the
 * polyfill or when there is none.
 */
export function isNativeModelContext(context: ModelContext | undefined = readModelContext()): boolean {
  return context !== undefined && (context as unknown as Record<string, unknown>)[POLYFILL_MARKER] !== true;
}

function readModelContext(): ModelContext | undefined {
  if (typeof document === "undefined") return undefined;
  const context = (document as { modelContext?: ModelContext }).modelContext;
  return typeof context === "object" && context !== null ? context : undefined;
}
