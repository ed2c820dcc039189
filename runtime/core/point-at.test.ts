// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { onAgentEvent, type AgentEvent } from "./agent-events.js";
import { callModelContextTool } from "./call-model-context-tool.js";
import { defineWebTool } from "./define-web-tool.js";
import { registerWebTool } from "./register-web-tool.js";
import { installHappyDomWebMCP, resetWebMCP } from "./test-fixtures/happy-dom-webmcp.js";

describe("context.pointAt", () => {
  let registrations: AbortController;
  const events: AgentEvent[] = [];
  let stop: () => void;
  beforeEach(() => {
    installHappyDomWebMCP();
    registrations = new AbortController();
    events.length = 0;
    stop = onAgentEvent((event) => events.push(event));
    document.body.innerHTML = '<input id="name" /><button id="go">Go</button>';
  });
  afterEach(() => {
    stop();
    registrations.abort();
    resetWebMCP();
  });

  it("emits act events with the call's tool name, for an element or a selector", async () => {
    await registerWebTool(
      defineWebTool({
        name: "fill_name",
        description: "Type a name and press Go.",
        execute: (_input, { pointAt }) => {
          pointAt("#name", { action: "type", text: "Ada" });
          pointAt(document.querySelector("#go")!, { action: "click" });
          pointAt("#go");
          return "ok";
        },
      }),
      { signal: registrations.signal },
    );
    const output = await callModelContextTool({ name: "fill_name", input: {} });
    expect(output.isError).toBeUndefined();
    const acts = events.filter((event) => event.type === "act");
    expect(acts).toEqual([
      { type: "act", tool: "fill_name", action: "type", target: document.querySelector("#name"), text: "Ada" },
      { type: "act", tool: "fill_name", action: "click", target: document.querySelector("#go") },
      { type: "act", tool: "fill_name", action: "point", target: document.querySelector("#go") },
    ]);
  });

  it("fails the call with a clear message when the target is not on the page", async () => {
    await registerWebTool(
      defineWebTool({ name: "lost", description: "Points at nothing.", execute: (_input, { pointAt }) => pointAt("#missing") }),
      { signal: registrations.signal },
    );
    const output = await callModelContextTool({ name: "lost", input: {} });
    expect(output.isError).toBe(true);
    expect(output.content[0]?.text).toMatch(/^Error \[tool_failed\]: .*no element matches "#missing".*pointAt/);
  });
});
