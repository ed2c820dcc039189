import { describe, expect, it } from "vitest";
import { parseAgentMessages } from "./parse-agent-messages.js";

describe("parseAgentMessages", () => {
  it("returns a conversation of the documented shape as it is", () => {
    const messages = [
      { id: "u", role: "user", parts: [{ type: "text", text: "hi" }] },
      {
        id: "a",
        role: "assistant",
        parts: [
          { type: "reasoning", text: "...", providerMetadata: { x: 1 } },
          {
            type: "tool",
            id: "d",
            name: "delegate_to_orders",
            input: { task: "t" },
            state: "done",
            output: { content: [{ type: "text", text: "ok" }] },
            agent: { id: "orders", messages: [{ id: "n", role: "user", parts: [] }] },
          },
        ],
      },
    ];
    expect(parseAgentMessages(messages)).toBe(messages);
  });

  it.each([
    [null, /messages must be an array/],
    [[null], /messages\[0\] must be an object/],
    [[{ id: "", role: "user", parts: [] }], /messages\[0\]\.id/],
    [[{ id: "u", role: "system", parts: [] }], /messages\[0\]\.role must be "user" or "assistant"/],
    [[{ id: "u", role: "user", parts: {} }], /messages\[0\]\.parts must be an array/],
    [[{ id: "u", role: "user", parts: [{ type: "text", text: 3 }] }], /parts\[0\]\.text must be a string/],
    [[{ id: "a", role: "assistant", parts: [{ type: "tool", id: "c", name: "n", state: "ok" }] }], /parts\[0\]\.state must be one of/],
    [[{ id: "a", role: "assistant", parts: [{ type: "tool", id: "c", name: "n", state: "done", output: "x" }] }], /output must be a tool result/],
    [
      [{ id: "a", role: "assistant", parts: [{ type: "tool", id: "c", name: "n", state: "done", agent: { id: "o", messages: [1] } }] }],
      /parts\[0\]\.agent\.messages\[0\] must be an object/,
    ],
  ])("refuses %j with a TypeError that names the path", (value, message) => {
    expect(() => parseAgentMessages(value)).toThrow(TypeError);
    expect(() => parseAgentMessages(value)).toThrow(message);
  });
});
