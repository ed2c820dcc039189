import { describe, expect, it } from "vitest";
import type { AgentMessage } from "../session/agent-message.js";
import { LIMITS } from "../session/limits.js";
import { toRequestMessages } from "./to-request-messages.js";

const message = (role: "user" | "assistant", index: number): AgentMessage => ({ id: `${role}-${index}`, role, parts: [{ type: "text", text: String(index) }] });
const ids = (messages: AgentMessage[]) => messages.map((entry) => entry.id);

describe("toRequestMessages", () => {
  it("keeps a history within the limit as it is", () => {
    const history = [message("user", 0), message("assistant", 1)];
    expect(toRequestMessages(history)).toEqual(history);
  });

  it("drops the oldest past the limit and starts the window at a user message", () => {
    // u a a u a a u a a ...: the last 4 start at an assistant message.
    const history = Array.from({ length: 9 }, (_, index) => message(index % 3 === 0 ? "user" : "assistant", index));
    expect(ids(toRequestMessages(history, 4))).toEqual(["user-6", "assistant-7", "assistant-8"]);
    expect(ids(toRequestMessages(history, 6))).toEqual(["user-3", "assistant-4", "assistant-5", "user-6", "assistant-7", "assistant-8"]);
  });

  it("uses LIMITS.messages (160) by default", () => {
    const history = Array.from({ length: 400 }, (_, index) => message(index % 2 === 0 ? "user" : "assistant", index));
    const sent = toRequestMessages(history);
    expect(LIMITS.messages).toBe(160);
    expect(sent).toHaveLength(160);
    expect(sent[0]).toEqual(history[240]);
  });

  it("starts at the last user message when one turn alone is longer than the limit", () => {
    const history = [message("user", 0), ...Array.from({ length: 5 }, (_, index) => message("assistant", index + 1))];
    expect(ids(toRequestMessages(history, 3))).toEqual(ids(history));
  });

  it("leaves out messages with no parts", () => {
    const empty: AgentMessage = { id: "empty", role: "assistant", parts: [] };
    expect(ids(toRequestMessages([message("user", 0), empty]))).toEqual(["user-0"]);
  });

  it("sends a stopped reply's text without its stopped mark, and leaves out one stopped before it said anything", () => {
    const stopped: AgentMessage = { id: "a1", role: "assistant", parts: [{ type: "text", text: "Your socks" }], stopped: true };
    const empty: AgentMessage = { id: "a2", role: "assistant", parts: [], stopped: true };
    expect(toRequestMessages([message("user", 0), stopped, message("user", 2), empty])).toEqual([
      message("user", 0),
      { id: "a1", role: "assistant", parts: [{ type: "text", text: "Your socks" }] },
      message("user", 2),
    ]);
  });

  it("strips nested runs and prompts, cuts outputs and errors, and is idempotent", () => {
    const history: AgentMessage[] = [
      message("user", 0),
      {
        id: "a",
        role: "assistant",
        parts: [
          { type: "tool", id: "t1", name: "delegate_to_x", input: {}, state: "done", output: { content: [{ type: "text", text: "y".repeat(5000) }] }, agent: { id: "x", messages: [message("user", 9)] } },
          { type: "tool", id: "t2", name: "pay", input: {}, state: "error", error: `Error [tool_failed]: ${"z".repeat(5000)}`, prompt: "Click Pay." },
        ],
      },
    ];
    const once = toRequestMessages(history);
    const [first, second] = once[1]!.parts as unknown as [Record<string, any>, Record<string, any>];
    expect(first.agent).toBeUndefined();
    expect(first.output.content[0].text).toHaveLength(LIMITS.toolResultText);
    expect(second.prompt).toBeUndefined();
    expect(second.error).toHaveLength(LIMITS.toolResultText);
    expect(toRequestMessages(once)).toEqual(once);
    // The input is left alone.
    expect((history[1]!.parts[0] as { agent?: unknown }).agent).toBeDefined();
  });
});
