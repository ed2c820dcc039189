/**
 * The chat's stylesheet, inside its shadow root: nothing leaks out, and the
 * page's selectors cannot reach in. `.root` resets every inherited property
 * (`all: initial`), so the page's font and colours do not seep through the
 * host either. Light and dark follow `prefers-color-scheme`; motion stops
 * under `prefers-reduced-motion`. Sides are logical (`margin-inline-start`,
 * not `margin-left`): on a right-to-left page (`dir="rtl"`, which `all`
 * does not reset) the chat lays out mirrored.
 */
export const CHAT_STYLES =
  // The host is a size container: the header reflows by the chat's own width, not the page's.
  `:host { display: block; container: chat / inline-size; }
.root {
  all: initial;
  --bg: #ffffff; --fg: #1b1d21; --muted: #5d6470; --line: #d9dce1; --soft: #f3f4f6;
  --accent: #2456d6; --accent-fg: #ffffff; --user: #e8eefc; --danger: #b42318; --warn: #8a5a00;
  --focus: 0 0 0 3px color-mix(in srgb, var(--accent) 45%, transparent);
  color-scheme: light dark;
  box-sizing: border-box; display: flex; flex-direction: column; gap: 8px;
  height: 100%; min-height: 320px; padding: 12px;
  background: var(--bg); color: var(--fg);
  border: 1px solid var(--line); border-radius: 12px;
  font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
` +
  // The last resort when the box is too small even for every part's minimum:
  // the chat scrolls inside its border, never spills past it.
  `  overflow: auto;
}
` +
  // In the fixed-height column, the parts keep their height and the log takes
  // what is left and scrolls; an open model picker shrinks and scrolls before
  // the composer could be pushed out (it was: picker open, the composer and its
  // help text drew below the border, over the page's background).
  `.root > * { flex-shrink: 0; }
@media (prefers-color-scheme: dark) {
  .root {
    --bg: #17191d; --fg: #e8eaed; --muted: #a3a9b3; --line: #343841; --soft: #22252b;
    --accent: #7aa2ff; --accent-fg: #0d1424; --user: #253354; --danger: #ff8a80; --warn: #f0c060;
  }
}
.root *, .root *::before, .root *::after { box-sizing: border-box; }
.visually-hidden { position: absolute; width: 1px; height: 1px; margin: -1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
button, select, textarea, input { font: inherit; color: inherit; }
button {
  cursor: pointer; border: 1px solid var(--line); background: var(--soft); border-radius: 8px; padding: 5px 10px;
}
button.primary { background: var(--accent); border-color: var(--accent); color: var(--accent-fg); }
button:disabled, textarea:disabled, select:disabled, input:disabled { opacity: 0.55; cursor: not-allowed; }
button:focus-visible, select:focus-visible, textarea:focus-visible, input:focus-visible, summary:focus-visible, a:focus-visible {
  outline: none; box-shadow: var(--focus);
}
a { color: var(--accent); }
` +
  // Nothing in the header is cut ("Field Store assi…", "On this devi" at 400
  // px): where the title and the actions do not fit on one row, the actions
  // (switcher and New chat, together) wrap under the title, and a title
  // longer than the chat wraps its words. The switcher's label goes first.
  `.header { display: flex; flex-wrap: wrap; align-items: center; gap: 6px 8px; }
.title { font-size: 15px; font-weight: 600; margin: 0; margin-inline-end: auto; min-width: 0; overflow-wrap: anywhere; }
.actions { display: flex; align-items: center; gap: 8px; margin-inline-start: auto; }
.header button { white-space: nowrap; }
.switcher { display: flex; align-items: center; gap: 6px; color: var(--muted); }
@container chat (max-width: 440px) {
  .switcher label { position: absolute; width: 1px; height: 1px; margin: -1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
}
select { background: var(--soft); border: 1px solid var(--line); border-radius: 8px; padding: 4px 6px; }
.card { border: 1px solid var(--line); border-radius: 10px; padding: 10px; background: var(--soft); display: grid; gap: 6px; }
.card p { margin: 0; }
.card .note { color: var(--warn); }
.row { display: flex; align-items: center; gap: 8px; flex-wrap: wrap; }
.muted { color: var(--muted); }
.usage { font-size: 12px; margin: 0; padding: 0 12px 4px; }
.push { margin-inline-start: auto; }
.alert { color: var(--danger); }
progress { width: 100%; height: 8px; accent-color: var(--accent); }
.models { flex-shrink: 1; min-height: 2.2em; overflow-y: auto; overscroll-behavior: contain; }
.models summary { cursor: pointer; color: var(--muted); }
.models fieldset { border: 0; margin: 6px 0 0; padding: 0; display: grid; gap: 6px; }
.model { display: grid; grid-template-columns: auto 1fr; gap: 2px 8px; padding: 6px 8px; border: 1px solid var(--line); border-radius: 8px; cursor: pointer; }
.model input { grid-row: span 2; margin-top: 3px; }
.model .brief { color: var(--muted); }
.badge { display: inline-block; font-size: 12px; padding: 0 6px; border-radius: 999px; border: 1px solid var(--line); margin-inline-start: 6px; color: var(--muted); }
.log { flex: 1 1 0; overflow-y: auto; display: flex; flex-direction: column; gap: 10px; padding: 2px; min-height: 96px; }
.empty { color: var(--muted); margin: auto; text-align: center; }
` +
  // A string with no break opportunity (a URL, base64, a hash) wraps anywhere
  // instead of widening the bubble: an unbroken 100,000 characters was laid out
  // 857,910 px wide. "anywhere", not "break-word": only "anywhere" also
  // shrinks the min-content width the grid and flex layout size by. The column
  // is minmax(0, 1fr) so a code block's long line scrolls inside it.
  `.message { max-width: 92%; display: grid; grid-template-columns: minmax(0, 1fr); gap: 6px; overflow-wrap: anywhere; }
.stopped { font-size: 12px; margin: 0; font-style: italic; }
.message.user { align-self: flex-end; background: var(--user); padding: 6px 10px; border-radius: 12px; border-end-end-radius: 2px; white-space: pre-wrap; }
.message.assistant { align-self: stretch; max-width: none; }
.markdown > * { margin: 0 0 6px; }
.markdown > *:last-child { margin-bottom: 0; }
.markdown ul, .markdown ol { padding-inline-start: 20px; }
.markdown blockquote { border-inline-start: 3px solid var(--line); padding-inline-start: 8px; color: var(--muted); margin-inline-start: 0; }
code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12.5px; background: var(--soft); padding: 1px 4px; border-radius: 4px; }
` +
  // Code blocks keep their lines and scroll sideways, as in an editor: a wrapped
  // line of code reads as two, and indentation is meaning. Inline code wraps.
  `pre { margin: 0; padding: 8px; background: var(--soft); border-radius: 8px; overflow: auto; max-height: 240px; white-space: pre; overflow-wrap: normal; }
` +
  // A very long line renders as pieces (markdown-text.tsx): each lays out on its
  // own and not at all while off screen, so streaming it is not quadratic.
  `.long-line, .line-piece { display: block; }
.line-piece { content-visibility: auto; contain-intrinsic-size: auto 600px; }
pre code { background: none; padding: 0; }
.tool { border: 1px solid var(--line); border-radius: 8px; padding: 4px 8px; display: grid; gap: 4px; }
.tool summary { cursor: pointer; display: flex; gap: 8px; align-items: center; list-style: revert; }
.tool .name { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12.5px; }
.tool .state { font-size: 12px; color: var(--muted); margin-inline-start: auto; }
.tool[data-state="error"] .state { color: var(--danger); }
.tool[data-state="awaiting-confirmation"] { border-color: var(--accent); }
.tool[data-state="awaiting-confirmation"] .state, .tool .prompt { color: var(--accent); font-weight: 600; }
.tool .prompt { margin: 0; }
.tool .io { display: grid; gap: 4px; padding: 4px 0; }
.tool .io h4 { margin: 0; font-size: 12px; color: var(--muted); font-weight: 600; }
.nested { border-inline-start: 2px solid var(--line); padding-inline-start: 10px; display: grid; gap: 6px; }
.nested .label { color: var(--muted); font-size: 12px; }
.spinner { width: 10px; height: 10px; border-radius: 50%; border: 2px solid var(--line); border-top-color: var(--accent); display: inline-block; animation: spin 0.8s linear infinite; }
@keyframes spin { to { transform: rotate(360deg); } }
.working { color: var(--muted); display: flex; gap: 6px; align-items: center; }
.error { border: 1px solid var(--danger); border-radius: 10px; padding: 8px 10px; display: grid; gap: 4px; }
.error p { margin: 0; }
.composer { display: grid; gap: 6px; }
.composer .field { display: flex; gap: 6px; align-items: flex-end; }
textarea { flex: 1; resize: none; min-height: 38px; max-height: 140px; padding: 8px; border-radius: 8px; border: 1px solid var(--line); background: var(--bg); }
.explain { margin: 0; color: var(--muted); font-size: 13px; }
@media (prefers-reduced-motion: reduce) {
  .spinner { animation: none; }
  .root * { transition: none !important; animation: none !important; }
}
`;
