import { describe, expect, it, vi } from "vitest";
import type { ChatWireEvent } from "./chat-wire.js";
import { eventStreamResponse } from "./event-stream-response.js";

describe("eventStreamResponse", () => {
  it("writes one data line per event and pings while the model is silent", async () => {
    async function* events(): AsyncGenerator<ChatWireEvent> {
      yield { type: "text-delta", delta: "line\nbreak" };
      await new Promise((resolve) => setTimeout(resolve, 60));
      yield { type: "finish", reason: "stop" };
    }
    const onClose = vi.fn();
    const response = eventStreamResponse(events(), { heartbeat: 20, onClose });
    expect(response.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    const text = await response.text();
    expect(text.startsWith('data: {"type":"text-delta","delta":"line\\nbreak"}\n\n')).toBe(true);
    expect(text).toContain(": ping\n\n");
    expect(text.endsWith('data: {"type":"finish","reason":"stop"}\n\n')).toBe(true);
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it("stops the events when the body is cancelled", async () => {
    const finished = vi.fn();
    async function* events(): AsyncGenerator<ChatWireEvent> {
      try {
        for (;;) yield { type: "text-delta", delta: "x" };
      } finally {
        finished();
      }
    }
    const onClose = vi.fn();
    const reader = eventStreamResponse(events(), { onClose }).body!.getReader();
    await reader.read();
    await reader.cancel();
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(finished).toHaveBeenCalled();
  });
});
