/**
 * The agent cursor's stylesheet, inside its own shadow root. Nothing in it
 * takes pointer events, so the page stays clickable under it (the person
 * confirms a parked call by clicking the control beneath the cursor).
 * A typing bubble opens in the page's reading direction (logical
 * properties); a parked one on the side the overlay chose (`data-side`).
 */
export const CURSOR_STYLES = `
:host { all: initial; }
.layer {
  all: initial; position: fixed; inset: 0; pointer-events: none; z-index: 2147483647;
  --accent: #2456d6; --accent-fg: #ffffff; --bubble: #1b1d21; --bubble-fg: #ffffff;
  font: 13px/1.4 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
}
@media (prefers-color-scheme: dark) {
  .layer { --accent: #7aa2ff; --accent-fg: #0d1424; --bubble: #e8eaed; --bubble-fg: #17191d; }
}
.cursor {
  position: absolute; left: 0; top: 0; width: 0; height: 0;
  transition: transform 420ms cubic-bezier(0.2, 0.8, 0.2, 1), opacity 200ms;
}
.layer:not([data-visible]) .cursor { opacity: 0; }
.cursor[data-resting] { opacity: 0.45; }
.arrow { position: absolute; left: -2px; top: -2px; width: 22px; height: 22px; filter: drop-shadow(0 1px 2px rgb(0 0 0 / 0.35)); }
.ripple {
  position: absolute; left: -14px; top: -14px; width: 28px; height: 28px; border-radius: 50%;
  border: 2px solid var(--accent); opacity: 0; animation: ripple 500ms ease-out;
}
@keyframes ripple { from { transform: scale(0.3); opacity: 1; } to { transform: scale(1.4); opacity: 0; } }
.bubble {
  position: absolute; inset-inline-start: 18px; top: 20px; max-width: 260px; width: max-content;
  padding: 6px 10px; border-radius: 8px; background: var(--bubble); color: var(--bubble-fg);
  box-shadow: 0 2px 8px rgb(0 0 0 / 0.25); white-space: pre-wrap; word-break: break-word;
}
/* Dark text on the dark scheme's light accent: white on #7aa2ff was 2.4:1. */
.bubble.prompt { background: var(--accent); color: var(--accent-fg); font-weight: 600; }
.cursor[data-side="left"] .arrow { transform: scaleX(-1); left: -20px; }
.cursor[data-side="left"] .bubble { left: auto; right: 18px; }
.cursor[data-side="right"] .bubble { left: 18px; right: auto; }
.caret { display: inline-block; width: 1px; height: 1em; background: currentColor; margin-inline-start: 1px; vertical-align: text-bottom; animation: blink 1s steps(1) infinite; }
@keyframes blink { 50% { opacity: 0; } }
.ring {
  position: absolute; border: 2px solid var(--accent); border-radius: 8px;
  box-shadow: 0 0 0 4px color-mix(in srgb, var(--accent) 25%, transparent);
  animation: pulse 1.6s ease-in-out infinite;
}
@keyframes pulse { 50% { box-shadow: 0 0 0 8px color-mix(in srgb, var(--accent) 10%, transparent); } }
@media (prefers-reduced-motion: reduce) {
  .cursor, .ripple, .ring, .caret { transition: none; animation: none; }
  .ripple { opacity: 1; }
}
`;
