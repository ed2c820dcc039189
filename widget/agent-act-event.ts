/**
 * The agent event the cursor needs beyond the core's `park`: a tool acting on
 * an element. Proposed for `runtime/core/agent-events.ts` (with a
 * `context.pointAt(target, { action, text })` on `WebToolContext` that emits
 * it with the call's tool name); until it lands there, `<AgentCursor>`
 * listens for it on the same event bus, and a page may emit it with
 * `emitAgentEvent`.
 *
 * - `action: "point"`: the tool is about to use `target`;
 * - `"click"`: it clicked `target`;
 * - `"type"`: it typed `text` into `target`.
 */
export interface AgentActEvent {
  type: "act";
  /** The tool that acts. */
  tool: string;
  /** What it does. */
  action: "point" | "click" | "type";
  /** The element it acts on. */
  target: Element;
  /** For `type`: the text typed. */
  text?: string;
}
