import { describe, expect, it } from "vitest";
import type { AgentRunRequest } from "../session/agent-adapter.js";
import type { AgentStreamPart } from "../session/agent-stream-part.js";
import { createScriptedAdapter } from "./create-scripted-adapter.js";

async function collect(parts: AsyncIterable<AgentStreamPart>): Promise<AgentStreamPart[]> {
  const out: AgentStreamPart[] = [];
  for await (const part of parts) out.push(part);
  return out;
}

function request(overrides: Partial<AgentRunRequest> = {}): AgentRunRequest & { calls: string[] } {
  const calls: string[] = [];
  return {
    messages: [{ id: "u", role: "user", parts: [{ type: "text", text: "hi" }] }],
    tools: [{ name: "get_cart", description: "Read the cart.", inputSchema: { type: "object" } }],
    signal: new AbortController().signal,
    // A stand-in for the session's callTool: this unit has no page.
    callTool: async (call) => {
      calls.push(call.name);
      return call.name === "fail"
        ? { isError: true, content: [{ type: "text", text: "Error [tool_failed]: no" }] }
        : { content: [{ type: "text", text: `ran ${call.name}` }] };
    },
    calls,
    ...overrides,
  };
}

describe("createScriptedAdapter", () => {
  it("replays each run's parts, runs tool calls through callTool, and records what it saw", async () => {
    const adapter = createScriptedAdapter({
      runs: [
        [
          { type: "message-start", messageId: "m" },
          { type: "tool-call", messageId: "m", id: "c1", name: "get_cart", input: {} },
          { type: "tool-call", messageId: "m", id: "c2", name: "fail", input: {} },
          { type: "tool-call", messageId: "m", id: "c3", name: "given", input: {} },
          { type: "tool-result", id: "c3", output: { content: [{ type: "text", text: "scripted" }] } },
          { type: "finish", reason: "stop" },
        ],
      ],
    });
    const req = request({ agent: undefined });
    const parts = await collect(adapter.run(req));
    expect(parts.map((part) => part.type)).toEqual([
      "message-start",
      "tool-call",
      "tool-result",
      "tool-call",
      "tool-error",
      "tool-call",
      "tool-result",
      "finish",
    ]);
    expect(parts[4]).toEqual({ type: "tool-error", id: "c2", error: "Error [tool_failed]: no", code: "tool_failed" });
    expect(req.calls).toEqual(["get_cart", "fail"]);
    expect(adapter.requests[0]).toMatchObject({ agent: undefined, tools: [{ name: "get_cart" }] });
    expect(adapter.requests[0]!.outputs).toHaveLength(2);
  });

  it("ends with an error part past its last run, and with finish aborted once the signal aborts", async () => {
    const controller = new AbortController();
    const adapter = createScriptedAdapter({
      runs: [[{ type: "message-start", messageId: "m" }, { type: "finish", reason: "stop" }]],
      delay: 20,
    });
    const first = adapter.run(request({ signal: controller.signal }))[Symbol.asyncIterator]();
    expect((await first.next()).value).toEqual({ type: "message-start", messageId: "m" });
    expect(adapter.requests[0]!.ended).toBeUndefined();
    controller.abort();
    expect((await first.next()).value).toEqual({ type: "finish", reason: "aborted" });
    expect(await first.next()).toEqual({ done: true, value: undefined });
    expect(adapter.requests[0]!.ended).toBe("aborted");
    const second = await collect(adapter.run(request()));
    expect(second).toEqual([{ type: "error", error: "The scripted adapter has no run 2 (it was given 1)." }]);
    expect(adapter.requests[1]!.ended).toBe("finished");
  });

  it("records how each run ended: played out, or left by its caller", async () => {
    const parts: AgentStreamPart[] = [{ type: "message-start", messageId: "m" }, { type: "finish", reason: "stop" }];
    const adapter = createScriptedAdapter({ runs: [parts, parts] });
    await collect(adapter.run(request()));
    const left = adapter.run(request())[Symbol.asyncIterator]();
    await left.next();
    await left.return?.(undefined);
    expect(adapter.requests.map((recorded) => recorded.ended)).toEqual(["finished", "closed"]);
  });

  it("scripts a run from the request, and tells subscribers of status changes", async () => {
    const adapter = createScriptedAdapter({
      runs: [(req) => [{ type: "message-start", messageId: "m" }, { type: "text-delta", messageId: "m", delta: `${req.tools.length} tools` }]],
      status: { state: "needs-download", bytes: 5 },
    });
    const seen: string[] = [];
    adapter.subscribe(() => seen.push(adapter.status().state));
    adapter.setStatus({ state: "ready" });
    expect(seen).toEqual(["ready"]);
    expect((await collect(adapter.run(request())))[1]).toMatchObject({ delta: "1 tools" });
    expect(() => createScriptedAdapter({} as never)).toThrow(/runs/);
  });
});
