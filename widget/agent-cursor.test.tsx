// @vitest-environment happy-dom
import { act } from "react";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { emitAgentEvent, type AgentEvent } from "../runtime/core/agent-events.js";
import { personClick } from "../runtime/core/test-fixtures/happy-dom-webmcp.js";
import { AgentCursor, loadCursorOverlay } from "./agent-cursor.js";
import { CURSOR_STYLES } from "./cursor-styles.js";
import { cursorReducer, cursorVisible, initialCursorState } from "./cursor-reducer.js";
import { mount, tick, type Mounted } from "./test-fixtures/mount.js";

let mounted: Mounted;
// The cursor's drawing loads on its first use (agent-cursor.lazy.test.tsx); loaded, it draws at once.
beforeAll(() => loadCursorOverlay());
let field: HTMLInputElement;
let confirm: HTMLButtonElement;
let elsewhere: HTMLParagraphElement;
let agentUi: HTMLDivElement;
beforeEach(() => {
  mounted = mount();
  document.body.insertAdjacentHTML(
    "beforeend",
    '<div id="page"><input id="field"><button id="confirm">Place order</button><p id="elsewhere">text</p><div data-web-agents-ui id="agent-ui"><button>In the widget</button></div></div>',
  );
  field = document.querySelector("#field")!;
  confirm = document.querySelector("#confirm")!;
  elsewhere = document.querySelector("#elsewhere")!;
  agentUi = document.querySelector("#agent-ui")!;
});
afterEach(() => {
  mounted.cleanup();
  document.querySelector("#page")?.remove();
});

const emit = (event: AgentEvent) => act(() => emitAgentEvent(event));
/** The cursor's shadow root on document.body, if it is rendered. */
const overlay = () =>
  [...document.body.children].find((element) => element.matches("[data-web-agents-ui]") && element.shadowRoot?.querySelector(".layer"))
    ?.shadowRoot ?? undefined;
const shown = () => overlay()?.querySelector(".layer")?.hasAttribute("data-visible") === true;

describe("cursorReducer", () => {
  it("points on act, parks with the prompt, clicks on resume, rests after the call, and yields to the person", () => {
    let state = cursorReducer(initialCursorState, { type: "start", tool: "fill" });
    expect(cursorVisible(state)).toBe(false);
    state = cursorReducer(state, { type: "act", tool: "fill", action: "type", target: field, text: "Ada" });
    expect(state).toMatchObject({ target: field, action: "type", text: "Ada", pointing: true });
    expect(cursorVisible(state)).toBe(true);
    state = cursorReducer(state, { type: "end", tool: "fill", isError: false });
    state = cursorReducer(state, { type: "start", tool: "place_order" });
    expect(cursorVisible(state)).toBe(false);
    expect(state.target).toBe(field);
    state = cursorReducer(state, { type: "park", tool: "place_order", prompt: "Click Place order.", target: confirm });
    expect(state).toMatchObject({ target: confirm, action: "park", prompt: "Click Place order." });
    state = cursorReducer(state, { type: "yield" });
    expect(cursorVisible(state)).toBe(false);
    state = cursorReducer(state, { type: "resume", tool: "place_order" });
    expect(state.prompt).toBeUndefined();
    state = cursorReducer(state, { type: "end", tool: "place_order", isError: false });
    state = cursorReducer(state, { type: "rest" });
    expect(state.target).toBeUndefined();
    state = cursorReducer(state, { type: "start", tool: "next" });
    expect(state.yielded).toBe(false);
  });
});

describe("cursorReducer with call ids", () => {
  it("follows the call by id: another call of the same tool neither resumes nor ends it", () => {
    let state = cursorReducer(initialCursorState, { type: "start", tool: "place_order", callId: "c1" });
    state = cursorReducer(state, { type: "park", tool: "place_order", callId: "c1", prompt: "Click Place order.", target: confirm });
    const parked = state;
    state = cursorReducer(state, { type: "resume", tool: "place_order", callId: "c2" });
    state = cursorReducer(state, { type: "end", tool: "place_order", callId: "c2", isError: false });
    expect(state).toBe(parked);
    state = cursorReducer(state, { type: "resume", tool: "place_order", callId: "c1" });
    expect(state).toMatchObject({ action: "click", callId: "c1", tool: "place_order" });
    state = cursorReducer(state, { type: "end", tool: "place_order", callId: "c1", isError: false });
    expect(state.tool).toBeUndefined();
    expect(state.callId).toBeUndefined();
  });

  it("matches events without an id by tool name, keeping the id of the call they happen in", () => {
    // A tool run through WebMCP parks without an id, inside a call that started with one.
    let state = cursorReducer(initialCursorState, { type: "start", tool: "native", callId: "c1" });
    state = cursorReducer(state, { type: "park", tool: "native", prompt: "Click it.", target: confirm });
    expect(state).toMatchObject({ action: "park", callId: "c1" });
    state = cursorReducer(state, { type: "resume", tool: "native" });
    expect(state.action).toBe("click");
    state = cursorReducer(state, { type: "end", tool: "native", callId: "c1", isError: false });
    expect(state.tool).toBeUndefined();
  });
});

describe("<AgentCursor>", () => {
  it("follows only the calls `follows` accepts, and every event without a call id", () => {
    mounted.render(<AgentCursor follows={(callId) => callId.startsWith("mine")} />);
    emit({ type: "start", tool: "place_order", callId: "theirs-1" });
    emit({ type: "park", tool: "place_order", callId: "theirs-1", prompt: "Not for this chat.", target: confirm });
    expect(overlay()).toBeUndefined();
    emit({ type: "start", tool: "fill", callId: "mine-1" });
    emit({ type: "act", tool: "fill", callId: "mine-1", action: "type", target: field, text: "Ada" });
    expect(shown()).toBe(true);
    emit({ type: "end", tool: "fill", callId: "theirs-2", isError: false });
    expect(overlay()!.querySelector(".cursor")?.hasAttribute("data-resting")).toBe(false);
    emit({ type: "act", tool: "native", action: "click", target: confirm });
    expect(overlay()!.querySelector<HTMLElement>(".cursor")!.dataset.action).toBe("click");
  });

  it("renders nothing until a tool acts or parks", async () => {
    mounted.render(<AgentCursor />);
    emit({ type: "start", tool: "get_cart" });
    await tick();
    expect(shown()).toBe(false);
  });

  it("moves to the element a tool acts on, shows a click and typing, in its own data-web-agents-ui host", async () => {
    mounted.render(<AgentCursor />);
    emit({ type: "start", tool: "fill" });
    emit({ type: "act", tool: "fill", action: "click", target: field });
    expect(shown()).toBe(true);
    const cursor = overlay()!.querySelector<HTMLElement>(".cursor")!;
    expect(cursor.dataset.action).toBe("click");
    expect(cursor.style.transform).toMatch(/^translate\(/);
    expect(cursor.querySelector(".ripple")).not.toBeNull();
    emit({ type: "act", tool: "fill", action: "type", target: field, text: "Ada Lovelace" });
    expect(cursor.dataset.action).toBe("type");
    expect(cursor.querySelector(".bubble")?.textContent).toBe("Ada Lovelace");
    expect(overlay()!.querySelector(".layer")?.getAttribute("aria-hidden")).toBe("true");
  });

  it("parks on the control a confirm-gated call waits for, ringing it and showing the prompt", () => {
    mounted.render(<AgentCursor />);
    emit({ type: "start", tool: "place_order" });
    emit({ type: "park", tool: "place_order", prompt: "Click Place order to confirm.", target: confirm });
    const layer = overlay()!.querySelector(".layer")!;
    expect(layer.querySelector(".ring")).not.toBeNull();
    expect(layer.querySelector('.prompt[role="status"]')?.textContent).toBe("Click Place order to confirm.");
    expect(layer.getAttribute("aria-hidden")).toBeNull();
    emit({ type: "resume", tool: "place_order" });
    expect(layer.querySelector(".ring, .prompt")).toBeNull();
  });

  it("does not announce the prompt when told not to (the chat announces it)", () => {
    mounted.render(<AgentCursor announce={false} />);
    emit({ type: "park", tool: "place_order", prompt: "Click.", target: confirm });
    expect(overlay()!.querySelector(".prompt")?.getAttribute("role")).toBeNull();
    expect(overlay()!.querySelector(".layer")?.getAttribute("aria-hidden")).toBe("true");
  });

  it("yields to a person's click outside the agent's UI until the next call; clicks in the agent's UI or by scripts do not count", () => {
    mounted.render(<AgentCursor />);
    emit({ type: "start", tool: "fill" });
    emit({ type: "act", tool: "fill", action: "point", target: field });
    act(() => personClick(agentUi.querySelector("button")!));
    expect(shown()).toBe(true);
    act(() => elsewhere.click()); // untrusted: a script, not the person
    expect(shown()).toBe(true);
    act(() => personClick(elsewhere));
    expect(shown()).toBe(false);
    emit({ type: "act", tool: "fill", action: "type", target: field, text: "x" });
    expect(shown()).toBe(false);
    emit({ type: "end", tool: "fill", isError: false });
    emit({ type: "start", tool: "fill" });
    emit({ type: "act", tool: "fill", action: "point", target: field });
    expect(shown()).toBe(true);
  });

  it("rests after a call ends, then hides", async () => {
    mounted.render(<AgentCursor restAfter={30} />);
    emit({ type: "start", tool: "fill" });
    emit({ type: "act", tool: "fill", action: "point", target: field });
    emit({ type: "end", tool: "fill", isError: false });
    expect(overlay()!.querySelector(".cursor")?.hasAttribute("data-resting")).toBe(true);
    await tick(60);
    expect(overlay()).toBeUndefined();
  });

  it("stops every animation under prefers-reduced-motion, and takes no pointer events", () => {
    const reduced = CURSOR_STYLES.slice(CURSOR_STYLES.indexOf("@media (prefers-reduced-motion: reduce)"));
    expect(reduced).toMatch(/\.cursor, \.ripple, \.ring, \.caret \{ transition: none; animation: none; \}/);
    expect(CURSOR_STYLES).toMatch(/\.layer \{[^}]*pointer-events: none/);
  });
});
