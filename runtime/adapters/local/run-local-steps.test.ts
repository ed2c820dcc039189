import { describe, expect, it } from "vitest";
import { defineWebAgent } from "../../agent/define-web-agent.js";
import type { ToolOutput } from "../../core/tool-output.js";
import type { AgentRunRequest, ToolCallRequest } from "../../session/agent-adapter.js";
import type { AgentStreamPart } from "../../session/agent-stream-part.js";
import type { ToolDescriptor } from "../../session/tool-descriptor.js";
import { createLocalAdapter } from "./create-local-adapter.js";
import type { LocalAdapterOptions } from "./local-adapter-options.js";
import { EngineHostDouble, afterToolResult, engineError, type EngineHostDoubleOptions } from "./test-fixtures/engine-host-double.js";

const CART: ToolDescriptor = { name: "add_to_cart", description: "Adds an item.", inputSchema: { type: "object", properties: { sku: { type: "string" } } } };

async function readyAdapter(double: EngineHostDoubleOptions = {}, options: LocalAdapterOptions = {}) {
  const engine = new EngineHostDouble({ cached: ["qwen3-0.6b/webgpu-q4f16"], ...double });
  const adapter = createLocalAdapter({ ...options, catalog: { ...options.catalog, autoLoad: false }, worker: { host: engine } });
  await adapter.prepare();
  return { engine, adapter };
}

interface RunSetup {
  signal?: AbortSignal;
  tools?: () => ToolDescriptor[];
  callTool?: (call: ToolCallRequest) => Promise<ToolOutput>;
  agent?: AgentRunRequest["agent"];
}

function request(setup: RunSetup = {}) {
  const toolCalls: ToolCallRequest[] = [];
  let toolReads = 0;
  const req: AgentRunRequest = {
    messages: [{ id: "u1", role: "user", parts: [{ type: "text", text: "Add socks" }] }],
    get tools() {
      toolReads++;
      return setup.tools?.() ?? [CART];
    },
    signal: setup.signal ?? new AbortController().signal,
    callTool: async (call) => {
      toolCalls.push(call);
      return setup.callTool ? setup.callTool(call) : { content: [{ type: "text", text: `Added ${(call.input as { sku: string }).sku}.` }] };
    },
    ...(setup.agent && { agent: setup.agent }),
  };
  return { req, toolCalls, toolReads: () => toolReads };
}

async function collect(parts: AsyncIterable<AgentStreamPart>): Promise<AgentStreamPart[]> {
  const all: AgentStreamPart[] = [];
  for await (const part of parts) all.push(part);
  return all;
}

/** Parts with ids replaced by their order of appearance, text deltas joined per message. */
function summarize(parts: AgentStreamPart[]): string[] {
  const ids = new Map<string, string>();
  const name = (id: string, prefix: string) => ids.get(id) ?? (ids.set(id, `${prefix}${ids.size}`), ids.get(id)!);
  const lines: string[] = [];
  for (const part of parts) {
    const last = lines.at(-1);
    switch (part.type) {
      case "message-start":
        lines.push(`message-start ${name(part.messageId, "m")}`);
        break;
      case "text-delta":
        if (last?.startsWith("text ")) lines[lines.length - 1] = last + part.delta;
        else lines.push(`text ${part.delta}`);
        break;
      case "reasoning":
        lines.push(`reasoning ${part.text}`);
        break;
      case "tool-call":
        lines.push(`tool-call ${name(part.id, "c")} ${part.name} ${JSON.stringify(part.input)}`);
        break;
      case "tool-result":
        lines.push(`tool-result ${name(part.id, "c")} ${part.output.content[0]?.text}`);
        break;
      case "tool-error":
        lines.push(`tool-error ${name(part.id, "c")} ${part.error}`);
        break;
      case "step-finish":
        lines.push(`step-finish ${part.step}`);
        break;
      case "finish":
        lines.push(`finish ${part.reason}`);
        break;
      case "error":
        lines.push(`error ${part.error}`);
        break;
    }
  }
  return lines;
}

describe("createLocalAdapter: the tool loop", () => {
  it("runs a two-step tool loop: call, result, answer", async () => {
    const { engine, adapter } = await readyAdapter();
    const { req, toolCalls, toolReads } = request();
    const parts = await collect(adapter.run(req));
    expect(summarize(parts)).toEqual([
      "message-start m0",
      'tool-call c1 add_to_cart {"sku":"socks"}',
      "tool-result c1 Added socks.",
      "step-finish 1",
      "message-start m2",
      "text Added socks to your cart.",
      "step-finish 2",
      "finish stop",
    ]);
    expect(toolCalls).toEqual([{ id: expect.any(String), name: "add_to_cart", input: { sku: "socks" } }]);
    expect(toolReads()).toBe(2);
    const [first, second] = engine.requests as [(typeof engine.requests)[0], (typeof engine.requests)[0]];
    expect(second.conversationId).toBe(first.conversationId);
    expect(first.id).not.toBe(second.id);
    expect(first.tools).toEqual([CART]);
    expect(first.model).toMatchObject({ key: "qwen3-0.6b/webgpu-q4f16" });
    // The second prompt extends the first byte for byte.
    expect(JSON.stringify(second.messages.slice(0, first.messages.length))).toBe(JSON.stringify(first.messages));
    expect(second.messages.slice(first.messages.length)).toEqual([
      { role: "assistant", content: "", tool_calls: [{ type: "function", function: { name: "add_to_cart", arguments: { sku: "socks" } } }] },
      { role: "tool", content: "Added socks." },
    ]);
  });

  it("hands the engine's step parts to the loop as they are: its usage, every field, on the step's step-finish", async () => {
    const usage = { promptTokens: 40, cachedPromptTokens: 32, outputTokens: 5, timeToFirstTokenMs: 12, decodeTokensPerSecond: 50, firstTokenAt: 1_700_000_000_000, threads: 3 };
    const { adapter } = await readyAdapter({ script: () => ({ chunks: ["Hello."], usage }) });
    const parts = await collect(adapter.run(request().req));
    expect(parts.filter((part) => part.type === "step-finish")).toEqual([{ type: "step-finish", step: 1, usage }]);
    expect(parts.at(-1)).toEqual({ type: "finish", reason: "stop" });
  });

  it("honours the agent's instructions and maxSteps, summing up without tools at the limit", async () => {
    const { engine, adapter } = await readyAdapter({
      script: (request) => (request.tools.length === 0 ? { chunks: ["I added socks; more needs another message."] } : { chunks: ['<tool_call>{"name": "add_to_cart", "arguments": {"sku": "socks"}}</tool_call>'] }),
    });
    const agent = defineWebAgent({ id: "shop", instructions: ["A sock shop.", "Prices are in euros."], maxSteps: 1 });
    const parts = summarize(await collect(adapter.run(request({ agent }).req)));
    expect(parts).toEqual([
      "message-start m0",
      'tool-call c1 add_to_cart {"sku":"socks"}',
      "tool-result c1 Added socks.",
      "step-finish 1",
      "message-start m2",
      "text I added socks; more needs another message.",
      "step-finish 2",
      "finish max-steps",
    ]);
    expect(engine.requests[0]!.messages[0]!.content).toMatch(/\n\n# About this site\n\nA sock shop\.\nPrices are in euros\.$/);
    expect(engine.requests.map((request) => request.tools.length)).toEqual([1, 0]);
    // The summing-up step may not call (the engine masks the opener); calls are constrained by default.
    expect(engine.requests.map((request) => [request.toolChoice, request.constrainToolCalls])).toEqual([
      [undefined, true],
      ["none", true],
    ]);
  });

  it("passes constrainToolCalls: false to every generation when the adapter turns it off", async () => {
    const { engine, adapter } = await readyAdapter({}, { generation: { temperature: 0, constrainToolCalls: false } });
    await collect(adapter.run(request().req));
    expect(engine.requests.length).toBeGreaterThan(0);
    expect(engine.requests.every((request) => request.constrainToolCalls === false && request.temperature === 0)).toBe(true);
  });

  it("ends max-steps without running calls the summing-up step still makes", async () => {
    const { adapter } = await readyAdapter({ script: () => ({ chunks: ['<tool_call>{"name": "add_to_cart", "arguments": {"sku": "socks"}}</tool_call>'] }) }, { maxSteps: 2 });
    const { req, toolCalls } = request();
    const parts = summarize(await collect(adapter.run(req)));
    expect(toolCalls).toHaveLength(2);
    expect(parts.slice(-5)).toEqual([
      "message-start m4",
      'tool-call c5 add_to_cart {"sku":"socks"}',
      "tool-error c5 Error [cancelled]: The step limit was reached before this call ran.",
      "step-finish 3",
      "finish max-steps",
    ]);
  });

  it("runs several calls of one step one at a time, in order", async () => {
    let running = 0;
    let overlapped = false;
    const { adapter } = await readyAdapter({
      script: (request) =>
        afterToolResult(request)
          ? { chunks: ["Both added."] }
          : { chunks: ['Adding.<tool_call>{"name": "add_to_cart", "arguments": {"sku": "socks"}}</tool_call>\n<tool_call>{"name": "add_to_cart", "arguments": {"sku": "hat"}}</tool_call>'] },
    });
    const { req, toolCalls } = request({
      callTool: async (call) => {
        overlapped ||= running > 0;
        running++;
        await new Promise((resolve) => setTimeout(resolve, 1));
        running--;
        return { content: [{ type: "text", text: `ok ${(call.input as { sku: string }).sku}` }] };
      },
    });
    const parts = summarize(await collect(adapter.run(req)));
    expect(parts.slice(0, 7)).toEqual([
      "message-start m0",
      "text Adding.",
      'tool-call c1 add_to_cart {"sku":"socks"}',
      'tool-call c2 add_to_cart {"sku":"hat"}',
      "tool-result c1 ok socks",
      "tool-result c2 ok hat",
      "step-finish 1",
    ]);
    expect(toolCalls.map((call) => (call.input as { sku: string }).sku)).toEqual(["socks", "hat"]);
    expect(overlapped).toBe(false);
  });

  it("answers a malformed call with invalid_input and never runs it", async () => {
    const { engine, adapter } = await readyAdapter({
      script: (request) =>
        request.messages.at(-1)?.role === "tool" ? { chunks: ["Sorry, that failed."] } : { chunks: ['<tool_call>{"name": "add_to_cart", "arguments": {"sku": </tool_call>'] },
    });
    const { req, toolCalls } = request();
    const parts = summarize(await collect(adapter.run(req)));
    expect(parts[1]).toBe('tool-call c1 add_to_cart "{\\"name\\": \\"add_to_cart\\", \\"arguments\\": {\\"sku\\":"');
    expect(parts[2]).toMatch(/^tool-error c1 Error \[invalid_input\]: the call is not valid JSON/);
    expect(parts.slice(3)).toEqual(["step-finish 1", "message-start m2", "text Sorry, that failed.", "step-finish 2", "finish stop"]);
    expect(toolCalls).toEqual([]);
    expect(engine.requests[1]!.messages.at(-1)).toEqual({ role: "tool", content: expect.stringMatching(/^Error \[invalid_input\]/) });
  });

  it("turns <think> into reasoning, and leaves it out of the next prompt", async () => {
    const { adapter } = await readyAdapter({ script: () => ({ chunks: ["<thi", "nk>The person greets.</th", "ink>\n\nHello!"] }) });
    const parts = summarize(await collect(adapter.run(request().req)));
    expect(parts).toEqual(["message-start m0", "reasoning The person greets.", "text Hello!", "step-finish 1", "finish stop"]);
  });

  it("stops mid-generation: cancels in the engine and ends aborted", async () => {
    const { engine, adapter } = await readyAdapter({ script: () => ({ chunks: ["Let me"], hang: true }) });
    const controller = new AbortController();
    const parts: AgentStreamPart[] = [];
    for await (const part of adapter.run(request({ signal: controller.signal }).req)) {
      parts.push(part);
      if (part.type === "text-delta") controller.abort();
    }
    expect(summarize(parts)).toEqual(["message-start m0", "text Let me", "finish aborted"]);
    expect(engine.cancelled).toEqual([engine.requests[0]!.id]);
  });

  it("stops during a tool call: the call ends cancelled", async () => {
    const controller = new AbortController();
    const { adapter } = await readyAdapter();
    const { req } = request({
      signal: controller.signal,
      callTool: () => {
        controller.abort();
        return new Promise(() => {});
      },
    });
    const parts = summarize(await collect(adapter.run(req)));
    expect(parts.slice(1)).toEqual(['tool-call c1 add_to_cart {"sku":"socks"}', "tool-error c1 Error [cancelled]: The run stopped before this call ran.", "finish aborted"]);
  });

  it("reports an engine error as an error part", async () => {
    const { adapter } = await readyAdapter({ script: () => ({ chunks: ["Hel"], error: engineError("worker_died", "The worker stopped.") }) });
    const parts = summarize(await collect(adapter.run(request().req)));
    expect(parts).toEqual(["message-start m0", "text Hel", expect.stringMatching(/^error The on-device model stopped .*The worker stopped\. Send again/)]);
  });

  it("asks for the download when the model is not on this device", async () => {
    const adapter = createLocalAdapter({ worker: { host: new EngineHostDouble() } });
    const parts = summarize(await collect(adapter.run(request().req)));
    expect(parts).toEqual(["error Download Qwen3 0.6B first: it runs on this device."]);
  });

  it("loads a cached model before the first step", async () => {
    const engine = new EngineHostDouble({ cached: ["qwen3-0.6b/webgpu-q4f16"], script: () => ({ chunks: ["Hi"] }) });
    const adapter = createLocalAdapter({ catalog: { autoLoad: false }, worker: { host: engine } });
    const parts = summarize(await collect(adapter.run(request().req)));
    expect(parts).toEqual(["message-start m0", "text Hi", "step-finish 1", "finish stop"]);
    expect(engine.count("load")).toBe(1);
  });
});
