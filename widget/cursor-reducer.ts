import { isEventOfCall, type AgentEvent } from "../runtime/core/agent-events.js";
import type { AgentActEvent } from "./agent-act-event.js";

/** Where the agent cursor is and what it shows. */
export interface CursorState {
  /** The element it points at; it is hidden without one. */
  target?: Element;
  /** What it is doing there: `park` while a confirm-gated call waits. */
  action?: AgentActEvent["action"] | "park";
  /** Text being typed (`type`). */
  text?: string;
  /** What the person should click, while parked. */
  prompt?: string;
  /** The tool whose call is open; unset between calls. */
  tool?: string;
  /** That call's id, when its events carry one: only its own `resume` and `end` move the cursor on. */
  callId?: string;
  /** Whether it points at `target` for the open call; false from a call's start until it acts or parks. */
  pointing: boolean;
  /** The person clicked outside the agent's UI: hidden until the next call. */
  yielded: boolean;
  /** Counts acts, so a second click on the same element animates again. */
  sequence: number;
}

/** Everything that moves the cursor: the core's events, `act`, the person taking over, and resting after a run. */
export type CursorAction = AgentEvent | { type: "yield" } | { type: "rest" };

/** The cursor before any tool ran: hidden. */
export const initialCursorState: CursorState = Object.freeze({ pointing: false, yielded: false, sequence: 0 });

/** The cursor's state machine: pure, like the session's. */
export function cursorReducer(state: CursorState, action: CursorAction): CursorState {
  switch (action.type) {
    case "start":
      // The target stays, unseen, so the next act animates from there.
      return { ...state, tool: action.tool, callId: action.callId, pointing: false, yielded: false, action: undefined, prompt: undefined, text: undefined };
    case "act":
      return {
        ...state,
        ...callOf(state, action),
        target: action.target,
        pointing: true,
        action: action.action,
        text: action.action === "type" ? action.text ?? "" : undefined,
        prompt: undefined,
        sequence: state.sequence + 1,
      };
    case "park":
      return {
        ...state,
        ...callOf(state, action),
        target: action.target ?? state.target,
        pointing: action.target !== undefined || state.target !== undefined,
        action: "park",
        prompt: action.prompt,
        text: undefined,
      };
    case "resume":
      return state.action === "park" && isEventOfCall(action, state)
        ? { ...state, action: "click", prompt: undefined, sequence: state.sequence + 1 }
        : state;
    case "end":
      if (state.tool === undefined || !isEventOfCall(action, state)) return state;
      return { ...state, tool: undefined, callId: undefined, prompt: undefined, action: state.action === "park" ? undefined : state.action };
    case "yield":
      return state.yielded ? state : { ...state, yielded: true };
    case "rest":
      return state.tool === undefined ? { pointing: false, yielded: state.yielded, sequence: state.sequence } : state;
    default:
      return state;
  }
}

/**
 * The call an event names, to follow from now on: its tool and id. An event
 * without an id from the tool already followed (a tool that runs through
 * WebMCP parks inside a call that started with an id) keeps that id.
 */
function callOf(state: CursorState, event: AgentEvent): Pick<CursorState, "tool" | "callId"> {
  const callId = event.callId ?? (event.tool === state.tool ? state.callId : undefined);
  return { tool: event.tool, callId };
}

/** Whether the cursor shows: it points at a target, and the person has not taken over. */
export const cursorVisible = (state: CursorState): boolean => state.pointing && state.target !== undefined && !state.yielded;
