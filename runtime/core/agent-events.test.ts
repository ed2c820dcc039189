import { afterEach, describe, expect, it, vi } from "vitest";
import { emitAgentEvent, onAgentEvent, type AgentEvent } from "./agent-events.js";

describe("agent events", () => {
  const stops: (() => void)[] = [];
  afterEach(() => {
    for (const stop of stops.splice(0)) stop();
    vi.restoreAllMocks();
  });

  it("delivers events in order until unsubscribed", () => {
    const seen: AgentEvent[] = [];
    const stop = onAgentEvent((event) => seen.push(event));
    emitAgentEvent({ type: "start", tool: "t", callId: "c1" });
    emitAgentEvent({ type: "end", tool: "t", isError: false });
    stop();
    emitAgentEvent({ type: "start", tool: "t" });
    expect(seen).toEqual([
      { type: "start", tool: "t", callId: "c1" },
      { type: "end", tool: "t", isError: false },
    ]);
  });

  it("keeps going when a listener throws, and reports it", () => {
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    const seen: string[] = [];
    stops.push(onAgentEvent(() => {
      throw new Error("boom");
    }));
    stops.push(onAgentEvent((event) => seen.push(event.type)));
    emitAgentEvent({ type: "resume", tool: "t" });
    expect(seen).toEqual(["resume"]);
    expect(error).toHaveBeenCalledOnce();
    expect(String(error.mock.calls[0]?.[0])).toContain('"resume"');
  });

  it("shares one bus across module copies through globalThis", async () => {
    vi.resetModules();
    const copy = await import("./agent-events.js?copy" as string) as typeof import("./agent-events.js");
    expect(copy.emitAgentEvent).not.toBe(emitAgentEvent);
    const seen: AgentEvent[] = [];
    stops.push(onAgentEvent((event) => seen.push(event)));
    copy.emitAgentEvent({ type: "resume", tool: "t" });
    expect(seen).toEqual([{ type: "resume", tool: "t" }]);
  });
});
