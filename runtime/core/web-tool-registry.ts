import type { WebTool } from "./define-web-tool.js";

// Per realm, shared by every copy of this module, like the agent event bus.
const REGISTRY = Symbol.for("webmcp-agents.web-tool-registry");

function registry(): Map<string, WebTool> {
  const global = globalThis as { [REGISTRY]?: Map<string, WebTool> };
  return (global[REGISTRY] ??= new Map());
}

/** The tool this window registered under `name` with `registerWebTool`, if it is still registered. */
export function findRegisteredWebTool(name: string): WebTool | undefined {
  return registry().get(name);
}

/**
 * Records `tool` as registered by this window. Returns a function that
 * removes it again, and only it (not a later tool of the same name).
 */
export function addRegisteredWebTool(tool: WebTool): () => void {
  registry().set(tool.name, tool);
  return () => {
    if (registry().get(tool.name) === tool) registry().delete(tool.name);
  };
}
