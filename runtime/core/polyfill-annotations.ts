import type { ModelContext } from "./model-context.js";

// Contexts already wrapped (a second copy of this module wrapping again would only nest, harmlessly).
const wrapped = new WeakSet<object>();

/** What the polyfill drops from one registration. */
type Extras = { consequentialHint?: boolean; outputSchema?: object };

/**
 * `@mcp-b/webmcp-polyfill` 5.1 keeps only `readOnlyHint` and
 * `untrustedContentHint` of a tool's annotations and drops its
 * `outputSchema` (its issue 341), so on a page without native WebMCP a tool
 * registered as `consequentialHint: true` by any script would read back as
 * not consequential, and the chat would run it without asking. This keeps
 * what the polyfill drops, by tool name, as each registration succeeds, and
 * puts it back on the entries `getTools()` returns (copies: the polyfill's
 * `executeTool` reads only their name, origin and window). Call it on the
 * polyfill only; idempotent.
 */
export function keepAnnotationsOnPolyfill(context: ModelContext): void {
  if (wrapped.has(context)) return;
  wrapped.add(context);
  const target = context;
  const extras = new Map<string, Extras>();
  const register = context.registerTool.bind(context);
  const getTools = context.getTools.bind(context);

  target.registerTool = async (tool, options) => {
    const { name } = tool;
    const before = extras.get(name);
    const consequentialHint = (tool.annotations as Extras | undefined)?.consequentialHint;
    const kept: Extras = {
      ...(typeof consequentialHint === "boolean" && { consequentialHint }),
      ...(typeof tool.outputSchema === "object" && tool.outputSchema !== null && { outputSchema: tool.outputSchema }),
    };
    // Recorded before the polyfill announces the tool (toolchange); put back if it refuses it (a duplicate).
    extras.set(name, kept);
    try {
      await register(tool, options);
    } catch (error) {
      // Unless a later registration of the name (StrictMode's second effect) took the entry since.
      if (extras.get(name) === kept) {
        if (before) extras.set(name, before);
        else extras.delete(name);
      }
      throw error;
    }
  };
  target.getTools = async () =>
    (await getTools()).map((entry) => {
      const { name, annotations } = entry as { name: string; annotations?: object };
      const { consequentialHint, outputSchema } = extras.get(name) ?? {};
      if (consequentialHint === undefined && !outputSchema) return entry;
      return { ...(entry as object), ...(outputSchema && { outputSchema }), ...(consequentialHint !== undefined && { annotations: { ...annotations, consequentialHint } }) };
    });
}
