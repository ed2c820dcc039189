import { useEffect, useRef, type ReactNode } from "react";
import type { WebTool } from "../runtime/core/define-web-tool.js";
import { registerWebToolInTurn } from "./register-web-tool-in-turn.js";

/** What `<WebAgentsProvider>` takes. */
export interface WebAgentsProviderProps {
  /**
   * Catalog tools from `defineWebTool`, registered on the page while the
   * provider is mounted. Default `[]`. A new array with the same tools in the
   * same order registers nothing again.
   */
  tools?: readonly WebTool[];
  /** The app. */
  children?: ReactNode;
}

const sameTools = (a: readonly WebTool[], b: readonly WebTool[]) =>
  a.length === b.length && a.every((tool, index) => tool === b[index]);

/**
 * Puts the site's catalog tools on the page (`document.modelContext`) for as
 * long as it is mounted, so `<AgentChat>`, `agent.invoke` and the browser's
 * own agent can call them. Each tool is registered on mount with a signal
 * and unregistered on unmount; safe under StrictMode and hot reload. Tools a
 * component owns register themselves with `useWebTool`.
 *
 * @example
 * <WebAgentsProvider tools={[tools.getCart, tools.goTo]}>
 *   <App />
 *   <AgentChat agent={shopper} />
 * </WebAgentsProvider>
 */
export function WebAgentsProvider({ tools = [], children }: WebAgentsProviderProps): ReactNode {
  const stable = useRef(tools);
  if (!sameTools(stable.current, tools)) stable.current = tools;
  const current = stable.current;

  useEffect(() => {
    const controller = new AbortController();
    for (const tool of current) void registerWebToolInTurn(tool, controller.signal);
    return () => controller.abort();
  }, [current]);

  return children;
}
