// @vitest-environment happy-dom
import { act, StrictMode } from "react";
import { createRoot, type Root } from "react-dom/client";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { installHappyDomWebMCP, resetWebMCP } from "../runtime/core/test-fixtures/happy-dom-webmcp.js";
import type { AgentSession } from "../runtime/session/agent-session.js";
import { createScriptedAdapter } from "../runtime/testing/create-scripted-adapter.js";
import { useAgentSession } from "./use-agent-session.js";
import { useAgentSessionStore } from "./use-agent-session-store.js";
import { useSessionSelector } from "./use-session-selector.js";
import type { AgentSessionStore } from "../runtime/session/create-agent-session.js";

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let root: Root;
let container: HTMLElement;
beforeEach(() => {
  installHappyDomWebMCP();
  container = document.createElement("div");
  document.body.append(container);
  root = createRoot(container);
});
afterEach(() => {
  act(() => root.unmount());
  container.remove();
  resetWebMCP();
});

const waitUntil = async (check: () => boolean) => {
  for (let tries = 0; tries < 200 && !check(); tries++) {
    await act(() => new Promise((resolve) => setTimeout(resolve, 10)));
  }
  expect(check()).toBe(true);
};

describe("useAgentSession", () => {
  it("renders the conversation as a run streams, under StrictMode", async () => {
    const adapter = createScriptedAdapter({
      runs: [[{ type: "message-start", messageId: "m" }, { type: "text-delta", messageId: "m", delta: "Hello!" }, { type: "finish", reason: "stop" }]],
    });
    let session: AgentSession | undefined;
    function Chat() {
      session = useAgentSession(adapter, { storageKey: false });
      return <p>{session.messages.map((message) => message.parts.map((part) => (part.type === "text" ? part.text : "")).join("")).join(" | ")}</p>;
    }
    act(() => root.render(<StrictMode><Chat /></StrictMode>));
    expect(session!.status).toBe("idle");
    expect(session!.adapterStatus).toEqual({ state: "ready" });
    act(() => session!.send("hi"));
    await waitUntil(() => container.textContent === "hi | Hello!");
    expect(session!.status).toBe("idle");
  });

  it("shows the adapter's status changes and aborts the run on unmount", async () => {
    const adapter = createScriptedAdapter({
      runs: [[{ type: "message-start", messageId: "m" }, { type: "text-delta", messageId: "m", delta: "slow" }, { type: "finish", reason: "stop" }]],
      delay: 200,
      status: { state: "needs-download", bytes: 100 },
    });
    let signal: AbortSignal | undefined;
    const run = adapter.run;
    adapter.run = (request) => {
      signal = request.signal;
      return run(request);
    };
    let session: AgentSession | undefined;
    function Chat() {
      session = useAgentSession(adapter, { storageKey: false });
      return <p>{session.adapterStatus.state}</p>;
    }
    act(() => root.render(<Chat />));
    expect(container.textContent).toBe("needs-download");
    act(() => adapter.setStatus({ state: "ready" }));
    expect(container.textContent).toBe("ready");
    act(() => session!.send("hi"));
    await waitUntil(() => adapter.requests.length === 1);
    expect(signal?.aborted).toBe(false);
    act(() => root.render(<></>));
    expect(signal?.aborted).toBe(true);
  });

  it("re-renders a component that selects a slice only when that slice changes", async () => {
    const adapter = createScriptedAdapter({
      runs: [[
        { type: "message-start", messageId: "m" },
        ...["one ", "two ", "three ", "four"].map((delta) => ({ type: "text-delta" as const, messageId: "m", delta })),
        { type: "finish", reason: "stop" },
      ]],
      delay: 5,
    });
    const renders = { status: 0, text: 0 };
    let store: AgentSessionStore | undefined;
    function Status({ of }: { of: AgentSessionStore }) {
      renders.status++;
      return <b>{useSessionSelector(of, (session) => session.status)}</b>;
    }
    function Text({ of }: { of: AgentSessionStore }) {
      renders.text++;
      const messages = useSessionSelector(of, (session) => session.messages);
      return <p>{messages.map((message) => message.parts.map((part) => (part.type === "text" ? part.text : "")).join("")).join(" | ")}</p>;
    }
    function Chat() {
      store = useAgentSessionStore(adapter, { storageKey: false });
      return <><Status of={store} /><Text of={store} /></>;
    }
    act(() => root.render(<Chat />));
    const before = { ...renders };
    act(() => store!.send("hi"));
    await waitUntil(() => container.textContent === "idlehi | one two three four");
    // streaming, then idle: two renders, whatever the text did.
    expect(renders.status - before.status).toBe(2);
    expect(renders.text - before.text).toBeGreaterThanOrEqual(2);
  });
});
