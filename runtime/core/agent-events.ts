/**
 * What happens to a page tool call, for the session and the agent cursor:
 *
 * - `start`: a call started running (`callId` when the caller gave one).
 * - `park`: the call is parked on a control until the person clicks it;
 *   `prompt` says what to click, `target` is the control.
 * - `resume`: the person clicked; the call runs again.
 * - `act`: the call acts on `target` (`pointAt`): about to use it (`point`),
 *   clicked it (`click`) or typed `text` into it (`type`). The cursor moves there.
 * - `end`: the call finished; `isError` when it failed, was cancelled or timed out.
 */
export type AgentEvent =
  | { type: "start"; tool: string; callId?: string }
  | { type: "park"; tool: string; prompt: string; target?: Element }
  | { type: "resume"; tool: string }
  | { type: "act"; tool: string; action: "point" | "click" | "type"; target: Element; text?: string }
  | { type: "end"; tool: string; isError: boolean };

type Listener = (event: AgentEvent) => void;

// One bus per realm, shared by every copy of this module (source and dist can
// both load in development), so events reach every subscriber.
const BUS = Symbol.for("webmcp-agents.agent-events");

function listeners(): Set<Listener> {
  const global = globalThis as { [BUS]?: Set<Listener> };
  return (global[BUS] ??= new Set());
}

/**
 * Calls `listener` with every {@link AgentEvent} in this window, in order.
 * Returns a function that unsubscribes. Subscribing the same function twice
 * subscribes it once.
 */
export function onAgentEvent(listener: (event: AgentEvent) => void): () => void {
  listeners().add(listener);
  return () => {
    listeners().delete(listener);
  };
}

/**
 * Sends `event` to every listener, synchronously. A listener that throws is
 * reported with `console.error` and does not stop the others.
 */
export function emitAgentEvent(event: AgentEvent): void {
  for (const listener of [...listeners()]) {
    try {
      listener(event);
    } catch (error) {
      console.error(`[web-agents] An agent event listener threw on "${event.type}":`, error);
    }
  }
}
