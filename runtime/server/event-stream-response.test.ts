import { describe, expect, it, vi } from "vitest";
import type { ChatWireEvent } from "./chat-wire.js";
import { eventStreamResponse } from "./event-stream-response.js";

describe("eventStreamResponse", () => {
  it("writes one data line per event and pings while the model is silent", async () => {
    // The model stays silent until the client has read a ping: the silence ends on that event, not after a guessed time.
    let pinged!: () => void;
    const ping = new Promise<void>((resolve) => (pinged = resolve));
    async function* events(): AsyncGenerator<ChatWireEvent> {
      yield { type: "text-delta", delta: "line\nbreak" };
      await ping;
      yield { type: "finish", reason: "stop" };
    }
    const onClose = vi.fn();
    const response = eventStreamResponse(events(), { heartbeat: 20, onClose });
    expect(response.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = "";
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      text += decoder.decode(chunk.value, { stream: true });
      if (text.includes(": ping\n\n")) pinged();
    }
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
