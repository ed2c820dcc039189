// @vitest-environment happy-dom
// Its own file: the cursor's drawing is loaded once per page, and here not yet.
import { act } from "react";
import { afterEach, expect, it } from "vitest";
import { emitAgentEvent } from "../runtime/core/agent-events.js";
import { AgentCursor } from "./agent-cursor.js";
import { mount, waitUntil } from "./test-fixtures/mount.js";

const mounted = mount();
afterEach(() => {
  mounted.cleanup();
  document.querySelector("#field")?.remove();
});

const prompt = () =>
  [...document.body.children].find((element) => element.matches("[data-web-agents-ui]"))?.shadowRoot?.querySelector(".prompt")?.textContent;

it("loads its drawing the first time a tool acts, then shows where the tool works", async () => {
  document.body.insertAdjacentHTML("beforeend", '<button id="field">Place order</button>');
  mounted.render(<AgentCursor />);
  act(() => emitAgentEvent({ type: "start", tool: "place_order" }));
  act(() => emitAgentEvent({ type: "park", tool: "place_order", prompt: "Click Place order.", target: document.querySelector("#field")! }));
  expect(prompt()).toBeUndefined();
  await waitUntil(() => prompt() === "Click Place order.", "the parked cursor's prompt");
});
