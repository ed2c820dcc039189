import type { ToolDescriptor } from "./tool-descriptor.js";
import { getModelContext } from "./model-context.js";
import { readPageTools } from "./read-page-tools.js";
import { TOOLS_SETTLE, waitForToolsToSettle } from "./settle-tools.js";

/**
 * Calls `listener` with the page's tools once they settle, and again after
 * every burst of `toolchange` events settles. Outside a browser it does
 * nothing. Returns a function that stops watching.
 */
export function watchPageTools(listener: (tools: ToolDescriptor[]) => void): () => void {
  if (typeof document === "undefined") return () => {};
  const stop = new AbortController();
  let pending = false;
  const refresh = async () => {
    if (pending) return;
    pending = true;
    try {
      await waitForToolsToSettle({ ...TOOLS_SETTLE, signal: stop.signal });
      pending = false;
      const tools = await readPageTools();
      if (!stop.signal.aborted) listener(tools);
    } catch (error) {
      pending = false;
      console.error("[web-agents] Could not read the page's tools:", error);
    }
  };
  try {
    getModelContext().addEventListener("toolchange", () => void refresh(), { signal: stop.signal });
  } catch (error) {
    console.error("[web-agents] WebMCP is not available on this page:", error);
    return () => {};
  }
  void refresh();
  return () => stop.abort();
}
