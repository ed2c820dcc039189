// @vitest-environment happy-dom
// The echo adapter from the adapter types reference (examples/runtime-demo), driven by
// a real session on a page with a polyfilled modelContext.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { defineWebTool } from "../core/define-web-tool.js";
import { registerWebTool } from "../core/register-web-tool.js";
import { installHappyDomWebMCP, resetWebMCP } from "../core/test-fixtures/happy-dom-webmcp.js";
import { echo } from "../../examples/runtime-demo/echo-adapter.js";
import { createAgentSession } from "./create-agent-session.js";

describe("the echo adapter from the adapter types reference", () => {
  const registrations = new AbortController();
  beforeEach(() => installHappyDomWebMCP());
  afterEach(() => {
    registrations.abort();
    resetWebMCP();
  });

  it("calls the page's first tool and reports what it found", async () => {
    await registerWebTool(
      defineWebTool({ name: "get_time", description: "The time.", execute: () => "12:00" }),
      { signal: registrations.signal },
    );
    await registerWebTool(
      defineWebTool({ name: "get_weather", description: "The weather.", execute: () => ({ sky: "clear" }) }),
      { signal: registrations.signal },
    );
    const session = createAgentSession(echo, { storageKey: false });
    const finished = new Promise<void>((resolve) =>
      session.subscribe(() => {
        if (session.getSnapshot().status === "idle" && session.getSnapshot().messages.length === 2) resolve();
      }),
    );
    session.send("What is here?");
    await finished;
    const [, reply] = session.getSnapshot().messages;
    expect(reply!.parts).toEqual([
      {
        type: "tool",
        id: expect.any(String),
        name: "get_time",
        input: {},
        state: "done",
        output: { content: [{ type: "text", text: "12:00" }] },
      },
      { type: "text", text: "This page has 2 tools." },
    ]);
    session.dispose();
  });
});
