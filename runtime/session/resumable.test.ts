import { describe, expect, it } from "vitest";
import type { AgentMessage, AgentPart } from "./agent-message.js";
import { resumable } from "./resumable.js";

const text = (value: string): AgentPart => ({ type: "text", text: value });
const tool = (id: string, state: "done" | "error" | "cancelled" | "running"): AgentPart => ({
  type: "tool",
  id,
  name: id,
  input: {},
  state,
});

describe("resumable", () => {
  const first: AgentMessage = { id: "u0", role: "user", parts: [text("hi")] };
  const earlier: AgentMessage = { id: "a0", role: "assistant", parts: [tool("old", "done"), text("hello")] };
  const user: AgentMessage = { id: "u1", role: "user", parts: [text("add socks and check out")] };

  it("keeps the turn through its last finished tool call and drops what followed", () => {
    const reply: AgentMessage = {
      id: "a1",
      role: "assistant",
      parts: [text("On it."), tool("add", "done"), tool("check", "error"), tool("order", "cancelled"), text("half")],
    };
    const result = resumable([first, earlier, user, reply]);
    expect(result).toEqual([first, earlier, user, { ...reply, parts: reply.parts.slice(0, 3) }]);
  });

  it("looks back across several assistant messages of the turn", () => {
    const a1: AgentMessage = { id: "a1", role: "assistant", parts: [tool("add", "done")] };
    const a2: AgentMessage = { id: "a2", role: "assistant", parts: [text("Now"), tool("order", "running")] };
    expect(resumable([user, a1, a2])).toEqual([user, a1]);
  });

  it("starts the turn over from the user's message when nothing finished", () => {
    const reply: AgentMessage = { id: "a1", role: "assistant", parts: [tool("add", "cancelled"), text("x")] };
    expect(resumable([first, earlier, user, reply])).toEqual([first, earlier, user]);
  });

  it("never reaches into an earlier turn, and leaves a conversation without a user message alone", () => {
    expect(resumable([first, earlier, user])).toEqual([first, earlier, user]);
    expect(resumable([earlier])).toEqual([earlier]);
  });

  it("refuses what is not a conversation, naming the bad path", () => {
    expect(() => resumable("hi" as never)).toThrow(TypeError);
    expect(() => resumable([{ id: "u", role: "user", parts: [{ type: "image" }] }] as never)).toThrow(
      /messages\[0\]\.parts\[0\]\.type/,
    );
  });
});
