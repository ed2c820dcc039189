import { useEffect, useLayoutEffect, useMemo, useReducer, useRef, useState, type ReactNode } from "react";
import { onAgentEvent, type AgentEvent } from "../runtime/core/agent-events.js";
import { mergeChatLabels, type ChatLabelsInput } from "./chat-labels.js";
import { useChatLabels } from "./chat-labels-context.js";
import { cursorReducer, cursorVisible, initialCursorState } from "./cursor-reducer.js";
import type { CursorOverlay } from "./cursor-overlay.js";
import { parkedPrompt } from "./parked-prompt.js";

/** What `<AgentCursor>` takes. */
export interface AgentCursorProps {
  /** Milliseconds the cursor lingers after a call ends before it hides. Default `1500`. */
  restAfter?: number;
  /**
   * Announce the prompt of a parked call to screen readers (`role="status"`).
   * Default `true`; `<AgentChat>` turns it off, as its conversation announces it.
   */
  announce?: boolean;
  /**
   * Which calls to follow, by call id: `<AgentChat>` follows the calls of its
   * own conversation, so two chats on one page each show their own. Events
   * that name no call id (a tool run through WebMCP by another script or
   * agent) are always followed. Default: every call.
   */
  follows?: (callId: string) => boolean;
  /**
   * The words for the one sentence the cursor says itself: the question of a
   * call the tool policy holds (`confirmQuestion`, see `ChatLabels`); a
   * tool's own prompt shows as the tool wrote it. Default: the labels of the
   * `<AgentChat>` it renders in, else English.
   */
  labels?: ChatLabelsInput;
}

let Overlay: typeof CursorOverlay | undefined;
let loadingOverlay: Promise<void> | undefined;

/**
 * Loads the cursor's drawing (`cursor-overlay.tsx`) once per page; every
 * cursor then draws synchronously. A failed load is tried again next time.
 */
export function loadCursorOverlay(): Promise<void> {
  loadingOverlay ??= import("./cursor-overlay.js").then(
    (module) => {
      Overlay = module.CursorOverlay;
    },
    (error: unknown) => {
      loadingOverlay = undefined;
      throw error;
    },
  );
  return loadingOverlay;
}

/** The marker of the agent's own UI: clicks inside it never make the cursor yield. */
export const AGENT_UI_ATTRIBUTE = "data-web-agents-ui";

const isAgentUi = (node: EventTarget) =>
  typeof (node as Element).hasAttribute === "function" && (node as Element).hasAttribute(AGENT_UI_ATTRIBUTE);

interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

const measure = (element: Element): Box => {
  const { left, top, width, height } = element.getBoundingClientRect();
  return { left, top, width, height };
};

/**
 * The agent cursor: an overlay, in its own `data-web-agents-ui` shadow host
 * on `document.body`, that shows where the agent works. It moves to the
 * element a tool acts on (`act` events: point, click with a ripple, typing
 * with the text), and parks on the control a confirm-gated call waits for
 * (the core's `park` event), ringing it and showing the prompt. A click by
 * the person anywhere outside the agent's UI makes it yield: hidden until
 * the next tool call starts. It lingers `restAfter` ms after a call ends,
 * then hides. No animation under `prefers-reduced-motion`. Takes no pointer
 * events. `<AgentChat>` renders one; render it yourself beside
 * `useWebAgent`.
 */
export function AgentCursor({ restAfter = 1500, announce = true, follows, labels: given }: AgentCursorProps): ReactNode {
  const inherited = useChatLabels();
  const labels = useMemo(() => (given ? mergeChatLabels(given) : inherited), [given, inherited]);
  const [state, dispatch] = useReducer(cursorReducer, initialCursorState);
  const [box, setBox] = useState<Box | undefined>();
  const [mounted, setMounted] = useState(false);
  const [, setOverlayLoaded] = useState(Overlay !== undefined);
  const visible = cursorVisible(state);
  // Mounted (unseen) while a call has a target but has not pointed yet, so its next move animates.
  const placed = state.target !== undefined && !state.yielded;
  const followsRef = useRef(follows);
  useLayoutEffect(() => {
    followsRef.current = follows;
  });

  useEffect(() => {
    setMounted(true);
    const stop = onAgentEvent((event: AgentEvent) => {
      if (event.callId !== undefined && followsRef.current && !followsRef.current(event.callId)) return;
      dispatch(event);
    });
    const onClick = (event: MouseEvent) => {
      if (!event.isTrusted || event.composedPath().some(isAgentUi)) return;
      dispatch({ type: "yield" });
    };
    document.addEventListener("click", onClick, { capture: true });
    return () => {
      stop();
      document.removeEventListener("click", onClick, { capture: true });
    };
  }, []);

  useLayoutEffect(() => {
    const target = state.target;
    if (!target || !placed) return;
    const update = () => setBox(target.isConnected ? measure(target) : undefined);
    update();
    window.addEventListener("scroll", update, { capture: true, passive: true });
    window.addEventListener("resize", update, { passive: true });
    return () => {
      window.removeEventListener("scroll", update, { capture: true });
      window.removeEventListener("resize", update);
    };
  }, [state.target, placed, state.sequence]);

  const resting = state.tool === undefined;
  useEffect(() => {
    if (!resting || !state.target) return;
    const timer = setTimeout(() => dispatch({ type: "rest" }), restAfter);
    return () => clearTimeout(timer);
  }, [resting, state.target, restAfter]);

  // The drawing loads the first time there is something to draw.
  const waitingForOverlay = mounted && placed && box !== undefined && !Overlay;
  useEffect(() => {
    if (!waitingForOverlay) return;
    loadCursorOverlay().then(
      () => setOverlayLoaded(true),
      () => {}, // not drawn this time; the cursor's next move tries again
    );
  }, [waitingForOverlay, state.sequence]);

  if (!mounted || !placed || !box || !Overlay) return null;
  const prompt = state.action === "park" && state.callId !== undefined ? parkedPrompt(state.callId, state.prompt, labels) : state.prompt;
  return <Overlay state={state} prompt={prompt} box={box} visible={visible} resting={resting} announce={announce} />;
}
