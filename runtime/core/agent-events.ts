/**
 * What happens to a page tool call, for the session and the agent cursor:
 *
 * - `start`: a call started running.
 * - `park`: the call is parked on a control until the person clicks it;
 *   `prompt` says what to click, `target` is the control.
 * - `resume`: the person clicked; the call runs again.
 * - `act`: the call acts on `target` (`pointAt`): about to use it (`point`),
 *   clicked it (`click`) or typed `text` into it (`type`). The cursor moves there.
 * - `end`: the call finished; `isError` when it failed, was cancelled or timed out.
 *
 * Every event names the call that caused it by `callId` (the model's tool
 * call id, which `callModelContextTool` hands to the tool's context) when it
 * is known, so two calls of one tool, or two chats on one page, each see
 * their own. It is not known for a tool that runs through
 * `document.modelContext` rather than this window's `registerWebTool`
 * (registered by another script, or called by another agent): such events
 * name only the `tool`, and listeners match them by tool name (see
 * {@link isEventOfCall}).
 */
export type AgentEvent =
  | { type: "start"; tool: string; callId?: string }
  | { type: "park"; tool: string; prompt: string; target?: Element; callId?: string }
  | { type: "resume"; tool: string; callId?: string }
  | { type: "act"; tool: string; action: "point" | "click" | "type"; target: Element; text?: string; callId?: string }
  | { type: "end"; tool: string; isError: boolean; callId?: string };

/**
 * Whether `event` belongs to the call `call` names: by call id when both
 * have one; by tool name when the event has none (a tool that knows no call
 * id); never when only the event has one (it is another call's).
 */
export function isEventOfCall(event: AgentEvent, call: { tool?: string | undefined; callId?: string | undefined }): boolean {
  if (event.callId !== undefined) return event.callId === call.callId;
  return event.tool === call.tool;
}

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

/** `{ callId }` when `callId` is set, else `{}`: for spreading into an event. */
export const withCallId = (callId: string | undefined): { callId?: string } => (callId === undefined ? {} : { callId });

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
