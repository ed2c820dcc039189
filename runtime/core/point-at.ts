import { emitAgentEvent, withCallId } from "./agent-events.js";
import { resolveTarget } from "./wait-for-click.js";

/** What `pointAt` takes besides the target. */
export interface PointAtOptions {
  /** The tool that acts (the context's `pointAt` fills it in). */
  tool: string;
  /** `point` (about to use it), `click` (clicked it) or `type` (typed `text`). Default `point`. */
  action?: "point" | "click" | "type";
  /** For `type`: the text typed. */
  text?: string;
  /** The id of the call that acts (the context's `pointAt` fills it in). Default: not set (matched by `tool`). */
  callId?: string;
}

/**
 * Emits an `act` agent event so the cursor moves to `target` and shows the
 * action: the visible half of a tool that works on the page. Throws a
 * `WebAgentsError` (`target_not_found`) when the target is not on the page.
 */
export function pointAt(target: Element | string, options: PointAtOptions): void {
  const element = resolveTarget(target, options.tool, "pointAt");
  const action = options.action ?? "point";
  emitAgentEvent({
    type: "act",
    tool: options.tool,
    action,
    target: element,
    ...(options.text !== undefined && { text: options.text }),
    ...withCallId(options.callId),
  });
}
