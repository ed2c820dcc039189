// @vitest-environment happy-dom
import { afterEach, beforeEach, expect, it, vi } from "vitest";
import { installHappyDomWebMCP, resetWebMCP } from "../core/test-fixtures/happy-dom-webmcp.js";
import type { AgentAdapter } from "./agent-adapter.js";
import type { AgentMessage } from "./agent-message.js";
import { createAgentSession } from "./create-agent-session.js";

beforeEach(() => {
  installHappyDomWebMCP();
  sessionStorage.clear();
  // Frames are queued and never run: whatever the adapter reads, the read itself brought up to date.
  vi.stubGlobal("requestAnimationFrame", () => 1);
  vi.stubGlobal("cancelAnimationFrame", () => {});
});
afterEach(() => {
  vi.unstubAllGlobals();
  resetWebMCP();
});

const textOf = (messages: readonly AgentMessage[]) =>
  messages.at(-1)!.parts.map((part) => (part.type === "text" ? part.text : "")).join("");

it("gives the adapter's req.conversation() every delta it yielded so far, with no frame between", async () => {
  const seen: string[] = [];
  const adapter: AgentAdapter = {
    id: "reader",
    label: "Reader",
    async *run(request) {
      yield { type: "message-start", messageId: "m1" };
      for (const delta of ["Hel", "lo", ", you."]) {
        yield { type: "text-delta", messageId: "m1", delta };
        // Resumed: the session has taken the delta.
        seen.push(textOf(request.conversation!()));
      }
      yield { type: "finish", reason: "stop" };
    },
  };
  const session = createAgentSession(adapter);
  const idle = new Promise<void>((resolve) => {
    session.subscribe(() => {
      if (session.getSnapshot().status === "idle") resolve();
    });
  });
  session.send("hi");
  await idle;
  expect(seen).toEqual(["Hel", "Hello", "Hello, you."]);
  expect(textOf(session.getSnapshot().messages)).toBe("Hello, you.");
  const stored = JSON.parse(sessionStorage.getItem("web-agents:chat")!) as { messages: AgentMessage[] };
  expect(textOf(stored.messages)).toBe("Hello, you.");
});
