import type { ReactNode } from "react";
import { createPortal } from "react-dom";
import type { CursorState } from "./cursor-reducer.js";
import { CURSOR_STYLES } from "./cursor-styles.js";
import { ShadowHost } from "./shadow-host.js";

/** Room a parked cursor's prompt needs to the right of its control (the bubble's max width and offset). */
const PARKED_ROOM = 290;

/** What `<CursorOverlay>` draws: the cursor's state, where its target is, and how. */
export interface CursorOverlayProps {
  state: CursorState;
  /** What a parked cursor says (the tool's prompt, or the chat's question for a held call). */
  prompt: string | undefined;
  box: { left: number; top: number; width: number; height: number };
  visible: boolean;
  resting: boolean;
  announce: boolean;
}

/**
 * The agent cursor's drawing, in its own `data-web-agents-ui` shadow host on
 * `document.body`. `<AgentCursor>` loads it the first time it has something
 * to show, so a page's first render ships only the cursor's event handling.
 */
export function CursorOverlay({ state, prompt, box, visible, resting, announce }: CursorOverlayProps): ReactNode {
  const parked = state.action === "park";
  // Parked, the cursor waits beside the control, never over its label: after it in the reading
  // direction (its right edge; its left one on a right-to-left page), or on its other side where
  // the prompt would run off the window (the bubble then opens the other way).
  const rtl = parked && state.target !== undefined && getComputedStyle(state.target).direction === "rtl";
  const roomRight = box.left + box.width + PARKED_ROOM <= window.innerWidth;
  const roomLeft = box.left - PARKED_ROOM >= 0;
  const side = (rtl ? roomLeft || !roomRight : !roomRight) ? "left" : "right";
  const x = !parked ? box.left + box.width / 2 : side === "right" ? box.left + box.width + 6 : box.left - 6;
  const y = box.top + box.height / 2;
  return createPortal(
    <ShadowHost css={CURSOR_STYLES}>
      <div className="layer" aria-hidden={parked && announce ? undefined : "true"} data-visible={visible ? "" : undefined}>
        {parked && (
          <div
            className="ring"
            style={{ left: box.left - 4, top: box.top - 4, width: box.width + 8, height: box.height + 8 }}
          />
        )}
        <div
          className="cursor"
          data-action={state.action}
          data-side={parked ? side : undefined}
          data-resting={resting ? "" : undefined}
          style={{ transform: `translate(${Math.round(x)}px, ${Math.round(y)}px)` }}
        >
          <svg className="arrow" viewBox="0 0 24 24" aria-hidden="true">
            <path d="M3 2l17 9-7.5 1.8L9.5 20z" fill="currentColor" stroke="#fff" strokeWidth="1.5" strokeLinejoin="round" style={{ color: "var(--accent)" }} />
          </svg>
          {state.action === "click" && <span key={state.sequence} className="ripple" />}
          {state.action === "type" && (
            <span className="bubble">
              {state.text}
              <span className="caret" />
            </span>
          )}
          {parked && prompt && (
            <span className="bubble prompt" role={announce ? "status" : undefined}>
              {prompt}
            </span>
          )}
        </div>
      </div>
    </ShadowHost>,
    document.body,
  );
}
