import { afterEach, describe, expect, it, vi } from "vitest";
import { defineWebAgent } from "../../agent/define-web-agent.js";
import type { ToolOutput } from "../../core/tool-output.js";
import type { AgentRunRequest, ToolCallRequest } from "../../session/agent-adapter.js";
import type { AgentMessage } from "../../session/agent-message.js";
import type { AgentStreamPart } from "../../session/agent-stream-part.js";
import { parseStreamPart } from "../../session/parse-stream-part.js";
import { sessionReducer, type SessionState } from "../../session/session-reducer.js";
import type { ToolDescriptor } from "../../session/tool-descriptor.js";
import { CLOUD_MESSAGES } from "./cloud-messages.js";
import { createCloudAdapter, type CloudAdapterOptions } from "./create-cloud-adapter.js";
import { TRUNCATION_MARKER } from "../truncate-tool-output.js";
import { call, createFetchDouble, finish, json, say, sseEvent, step, stream, type Reply } from "./test-fixtures/fetch-double.js";

const tool = (name: string): ToolDescriptor => ({ name, description: `The ${name} tool.`, inputSchema: { type: "object" } });
const user = (text: string, id = `u-${text}`): AgentMessage => ({ id, role: "user", parts: [{ type: "text", text }] });
const textOutput = (text: string): ToolOutput => ({ content: [{ type: "text", text }] });

interface TestRequest extends AgentRunRequest {
  /** Every call `callTool` got, in order. */
  calls: ToolCallRequest[];
  controller: AbortController;
}

function runRequest(
  options: {
    messages?: AgentMessage[];
    tools?: () => ToolDescriptor[];
    callTool?: (call: ToolCallRequest) => Promise<ToolOutput>;
    agent?: AgentRunRequest["agent"];
  } = {},
): TestRequest {
  const controller = new AbortController();
  const calls: ToolCallRequest[] = [];
  const readTools = options.tools ?? (() => [tool("get_cart")]);
  return {
    messages: options.messages ?? [user("hi")],
    get tools() {
      return readTools();
    },
    signal: controller.signal,
    callTool: async (request) => {
      calls.push(request);
      return options.callTool ? options.callTool(request) : textOutput(`ran ${request.name}`);
    },
    ...(options.agent && { agent: options.agent }),
    calls,
    controller,
  };
}

/** Runs the adapter to its end; every part must pass the session's own shape check. */
async function collect(parts: AsyncIterable<AgentStreamPart>): Promise<AgentStreamPart[]> {
  const collected: AgentStreamPart[] = [];
  for await (const part of parts) collected.push(parseStreamPart(part));
  return collected;
}

const last = (parts: AgentStreamPart[]) => parts.at(-1);
const types = (parts: AgentStreamPart[]) => parts.map((part) => part.type);

function adapterWith(posts: Reply[], options: CloudAdapterOptions & { get?: Reply | Reply[] } = {}) {
  const { get, ...adapterOptions } = options;
  const double = createFetchDouble({ posts, ...(get !== undefined && { get }) });
  const adapter = createCloudAdapter({ fetch: double.fetch, ...adapterOptions });
  return { adapter, double };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("createCloudAdapter: a run (against a fetch transport double)", () => {
  it("runs a multi-step turn: streams parts, runs tool calls in order through req.callTool, sends their results with the next step", async () => {
    const { adapter, double } = adapterWith([
      step({ type: "reasoning", text: "Look first.", providerMetadata: { anthropic: { signature: "sig" } } }, say("Checking"), say(" the cart."), call("c1", "get_cart"), call("c2", "add_item", { sku: "A1" }), finish("tool-calls")),
      step(say("Added A1."), finish("stop")),
    ]);
    let reads = 0;
    const request = runRequest({
      tools: () => (reads++ === 0 ? [tool("get_cart")] : [tool("get_cart"), tool("add_item")]),
      agent: defineWebAgent({ id: "shopper", instructions: "Secret instructions stay on the page." }),
    });
    const parts = await collect(adapter.run(request));

    expect(types(parts)).toEqual([
      "message-start", "reasoning", "text-delta", "text-delta", "tool-call", "tool-call", "tool-result", "tool-result", "step-finish",
      "message-start", "text-delta", "step-finish", "finish",
    ]);
    expect(last(parts)).toEqual({ type: "finish", reason: "stop" });
    expect(parts.filter((part) => part.type === "step-finish")).toEqual([{ type: "step-finish", step: 1 }, { type: "step-finish", step: 2 }]);
    expect(request.calls).toEqual([{ id: "c1", name: "get_cart", input: {} }, { id: "c2", name: "add_item", input: { sku: "A1" } }]);

    const [first, second] = double.posts();
    expect(first!.url).toBe("/api/chat");
    expect(first!.body).toEqual({ messages: [user("hi")], tools: [tool("get_cart")], page: { url: "" }, agent: "shopper" });
    expect(JSON.stringify(first!.body)).not.toContain("Secret instructions");
    // Tools are read fresh for every step.
    expect(second!.body.tools.map((descriptor: ToolDescriptor) => descriptor.name)).toEqual(["get_cart", "add_item"]);
    const assistant = second!.body.messages[1] as AgentMessage;
    expect(assistant.role).toBe("assistant");
    expect(assistant.parts).toEqual([
      { type: "reasoning", text: "Look first.", providerMetadata: { anthropic: { signature: "sig" } } },
      { type: "text", text: "Checking the cart." },
      { type: "tool", id: "c1", name: "get_cart", input: {}, state: "done", output: textOutput("ran get_cart") },
      { type: "tool", id: "c2", name: "add_item", input: { sku: "A1" }, state: "done", output: textOutput("ran add_item") },
    ]);
  });

  it("always sends content-type application/json, with the caller's headers read for each request", async () => {
    let token = 0;
    const { adapter, double } = adapterWith([step(call("c1", "get_cart"), finish("tool-calls")), step(say("ok"), finish())], {
      api: "/api/assistant",
      headers: () => ({ "x-csrf": `token-${++token}`, "content-type": "text/plain" }),
    });
    await collect(adapter.run(runRequest()));
    const [first, second] = double.posts();
    expect(first!.url).toBe("/api/assistant");
    expect(first!.headers.get("content-type")).toBe("application/json");
    expect(first!.headers.get("x-csrf")).toBe("token-1");
    expect(second!.headers.get("x-csrf")).toBe("token-2");
  });

  it("reports a failed tool call as tool-error and sends it on", async () => {
    const { adapter, double } = adapterWith([step(call("c1", "get_cart"), finish("tool-calls")), step(say("Sorry."), finish())]);
    const failed: ToolOutput = { isError: true, content: [{ type: "text", text: "Error [tool_failed]: The cart is locked." }] };
    const parts = await collect(adapter.run(runRequest({ callTool: async () => failed })));
    expect(parts).toContainEqual({ type: "tool-error", id: "c1", error: "Error [tool_failed]: The cart is locked.", code: "tool_failed" });
    expect(double.posts()[1]!.body.messages[1].parts[0]).toMatchObject({ state: "error", error: "Error [tool_failed]: The cart is locked." });
  });

  it("answers a tool call whose input did not parse with tool-call then tool-error invalid_input, and never runs it", async () => {
    const { adapter, double } = adapterWith([
      step({ type: "tool-call-invalid", id: "c1", name: "add_item", inputText: "{\"sku\":", error: "The input is not valid JSON." }, finish("tool-calls")),
      step(say("Fixed."), finish()),
    ]);
    const request = runRequest();
    const parts = await collect(adapter.run(request));
    const messageId = (parts[0] as { messageId: string }).messageId;
    expect(parts.slice(1, 3)).toEqual([
      { type: "tool-call", messageId, id: "c1", name: "add_item", input: "{\"sku\":" },
      { type: "tool-error", id: "c1", error: "Error [invalid_input]: The input is not valid JSON.", code: "invalid_input" },
    ]);
    expect(request.calls).toEqual([]);
    expect(double.posts()).toHaveLength(2);
    expect(last(parts)).toEqual({ type: "finish", reason: "stop" });
  });

  it("passes a wire error event on as an error part with its code", async () => {
    const { adapter } = adapterWith([step(say("Hm"), { type: "error", error: "The model provider failed. Try again.", code: "network" })]);
    const parts = await collect(adapter.run(runRequest()));
    expect(last(parts)).toEqual({ type: "error", error: "The model provider failed. Try again.", code: "network" });
  });
});

describe("createCloudAdapter: step budget", () => {
  const toolStep = (id: string) => step(call(id, "get_cart"), finish("tool-calls"));

  it("sends one more request after the last allowed tool step and ends with finish max-steps", async () => {
    const { adapter, double } = adapterWith([toolStep("c1"), toolStep("c2"), step(say("Summary."), finish())], { maxSteps: 2 });
    const request = runRequest();
    const parts = await collect(adapter.run(request));
    expect(double.posts()).toHaveLength(3);
    expect(request.calls.map((entry) => entry.id)).toEqual(["c1", "c2"]);
    expect(parts.filter((part) => part.type === "text-delta")).toHaveLength(1);
    expect(last(parts)).toEqual({ type: "finish", reason: "max-steps" });
  });

  it("never loops: calls on the summing-up step are cancelled, not run", async () => {
    const { adapter, double } = adapterWith([toolStep("c1"), toolStep("c2")], { maxSteps: 1 });
    const request = runRequest();
    const parts = await collect(adapter.run(request));
    expect(double.posts()).toHaveLength(2);
    expect(request.calls.map((entry) => entry.id)).toEqual(["c1"]);
    expect(parts).toContainEqual({ type: "tool-error", id: "c2", error: expect.stringMatching(/^Error \[cancelled\]: The step limit/), code: "cancelled" });
    expect(last(parts)).toEqual({ type: "finish", reason: "max-steps" });
  });

  it("lets an agent's own maxSteps win over the adapter's", async () => {
    const { adapter, double } = adapterWith([toolStep("c1"), step(say("Done."), finish())], { maxSteps: 8 });
    const agent = defineWebAgent({ id: "brief", instructions: "Be brief.", maxSteps: 1 });
    const parts = await collect(adapter.run(runRequest({ agent })));
    expect(double.posts()).toHaveLength(2);
    expect(last(parts)).toEqual({ type: "finish", reason: "max-steps" });
  });

  it("counts the tool steps a retried turn already took", async () => {
    const retried: AgentMessage[] = [
      user("buy it"),
      { id: "a1", role: "assistant", parts: [{ type: "tool", id: "c0", name: "get_cart", input: {}, state: "done", output: textOutput("[]") }] },
    ];
    const { adapter, double } = adapterWith([step(say("Summary."), finish())], { maxSteps: 1 });
    expect(last(await collect(adapter.run(runRequest({ messages: retried }))))).toEqual({ type: "finish", reason: "max-steps" });
    expect(double.posts()[0]!.body.messages).toEqual(retried);
  });

  it("ends with stop when the model answers within the budget", async () => {
    const { adapter } = adapterWith([toolStep("c1"), step(say("Done."), finish())], { maxSteps: 2 });
    expect(last(await collect(adapter.run(runRequest())))).toEqual({ type: "finish", reason: "stop" });
  });
});

describe("createCloudAdapter: HTTP failures become error parts", () => {
  const cases: [string, Reply, Partial<Extract<AgentStreamPart, { type: "error" }>>][] = [
    ["400", json(400, { error: "bad_request", message: "Too many tools." }), { error: CLOUD_MESSAGES.badRequest, code: "bad_request" }],
    ["413", json(413, { error: "payload_too_large", message: "Too big." }), { error: CLOUD_MESSAGES.tooLong, code: "bad_request" }],
    ["415", json(415, { error: "unsupported_media_type", message: "JSON only." }), { error: CLOUD_MESSAGES.badRequest, code: "bad_request" }],
    ["429", json(429, { error: "rate_limited", message: "Slow down." }, { "retry-after": "30" }), { error: CLOUD_MESSAGES.rateLimited(30), code: "rate_limited" }],
    ["429 without Retry-After", json(429, { error: "rate_limited", message: "Slow down." }), { error: CLOUD_MESSAGES.rateLimited(undefined), code: "rate_limited" }],
    ["429 with Retry-After over an hour", json(429, { error: "rate_limited", message: "x" }, { "retry-after": "3601" }), { error: CLOUD_MESSAGES.dailyLimit, code: "rate_limited" }],
    ["503 daily_budget", json(503, { error: "busy", message: "x", reason: "daily_budget" }), { error: CLOUD_MESSAGES.dailyLimit, code: "rate_limited" }],
    ["503 chat_disabled", json(503, { error: "chat_disabled", message: "x" }), { error: CLOUD_MESSAGES.notConfigured, code: "chat_disabled" }],
    ["other 503", json(503, { error: "busy", message: "x" }), { error: CLOUD_MESSAGES.busy, code: "busy" }],
    ["503 without a JSON body", new Response("Service Unavailable", { status: 503 }), { error: CLOUD_MESSAGES.busy, code: "busy" }],
    ["500", json(500, { error: "internal", message: "x" }), { error: CLOUD_MESSAGES.failed(500), code: "internal" }],
    ["a thrown fetch", new TypeError("Failed to fetch"), { error: CLOUD_MESSAGES.unreachable, code: "network" }],
  ];

  it.each(cases)("%s", async (_name, reply, expected) => {
    const { adapter } = adapterWith([reply]);
    const parts = await collect(adapter.run(runRequest()));
    expect(parts).toEqual([{ type: "error", ...expected }]);
  });

  it("reads every user-facing message as a full sentence that says what to do", () => {
    for (const message of [...Object.values(CLOUD_MESSAGES).filter((value) => typeof value === "string"), CLOUD_MESSAGES.rateLimited(5), CLOUD_MESSAGES.failed(502)]) {
      expect(message).toMatch(/^[A-Z].*\.$/);
    }
    expect(CLOUD_MESSAGES.busy).toMatch(/^The assistant is busy/);
    expect(CLOUD_MESSAGES.unreachable).toMatch(/^Couldn't reach the assistant/);
  });

  it("turns the status unavailable on a 503 chat_disabled", async () => {
    const { adapter } = adapterWith([json(503, { error: "chat_disabled", message: "x" })]);
    const heard = vi.fn();
    adapter.subscribe!(heard);
    await collect(adapter.run(runRequest()));
    expect(adapter.status!()).toEqual({ state: "unavailable", reason: "Chat isn't configured on this site." });
    expect(heard).toHaveBeenCalled();
  });
});

describe("createCloudAdapter: sessions", () => {
  const sessionRequired = () => json(401, { error: "session_required", message: "Start a session." });

  it("on 401 session_required, GETs again with sessionHeaders awaited and retries once", async () => {
    const sessionHeaders = vi.fn(async () => ({ "x-turnstile-token": "tok-1" }));
    const { adapter, double } = adapterWith([sessionRequired(), step(say("Hello."), finish())], { sessionHeaders });
    const parts = await collect(adapter.run(runRequest()));
    expect(last(parts)).toEqual({ type: "finish", reason: "stop" });
    expect(sessionHeaders).toHaveBeenCalledTimes(1);
    expect(double.requests.map((request) => request.method)).toEqual(["POST", "GET", "POST"]);
    expect(double.gets()[0]!.headers.get("x-turnstile-token")).toBe("tok-1");
    expect(double.posts()[1]!.body).toEqual(double.posts()[0]!.body);
  });

  it("gives up after a second 401: Couldn't start a chat session", async () => {
    const { adapter, double } = adapterWith([sessionRequired(), sessionRequired()]);
    const parts = await collect(adapter.run(runRequest()));
    expect(parts).toEqual([{ type: "error", error: "Couldn't start a chat session. Reload the page and try again.", code: "session_required" }]);
    expect(double.posts()).toHaveLength(2);
  });

  it("logs a sessionHeaders that throws, and reads Couldn't start a chat session", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const { adapter, double } = adapterWith([sessionRequired()], {
      sessionHeaders: () => {
        throw new Error("Turnstile failed.");
      },
    });
    const parts = await collect(adapter.run(runRequest()));
    expect(parts).toEqual([{ type: "error", error: CLOUD_MESSAGES.sessionFailed, code: "session_required" }]);
    expect(logged).toHaveBeenCalledWith(expect.stringContaining("sessionHeaders"), expect.objectContaining({ message: "Turnstile failed." }));
    expect(double.requests.map((request) => request.method)).toEqual(["POST"]);
  });

  it("shares one session start between runs that hit 401 together", async () => {
    const sessionHeaders = vi.fn(async () => ({ "x-turnstile-token": "tok" }));
    const { adapter, double } = adapterWith(
      [sessionRequired(), sessionRequired(), step(say("a"), finish()), step(say("b"), finish())],
      { sessionHeaders },
    );
    const [first, second] = await Promise.all([collect(adapter.run(runRequest())), collect(adapter.run(runRequest()))]);
    expect(last(first!)).toEqual({ type: "finish", reason: "stop" });
    expect(last(second!)).toEqual({ type: "finish", reason: "stop" });
    expect(sessionHeaders).toHaveBeenCalledTimes(1);
    expect(double.gets()).toHaveLength(1);
  });
});

describe("createCloudAdapter: broken streams", () => {
  it("reads malformed data as network", async () => {
    const { adapter } = adapterWith([stream([sseEvent(say("Hi")), "data: {not json\n\n"])]);
    const parts = await collect(adapter.run(runRequest()));
    expect(last(parts)).toEqual({ type: "error", error: CLOUD_MESSAGES.unreadable, code: "network" });
  });

  it("reads a known event with wrong members as network", async () => {
    const { adapter } = adapterWith([step({ type: "text-delta", delta: 5 })]);
    expect(last(await collect(adapter.run(runRequest())))).toMatchObject({ code: "network" });
  });

  it("reads a 200 that is not an event stream as network", async () => {
    const { adapter } = adapterWith([new Response("<html></html>", { status: 200, headers: { "content-type": "text/html" } })]);
    expect(await collect(adapter.run(runRequest()))).toEqual([{ type: "error", error: CLOUD_MESSAGES.unreadable, code: "network" }]);
  });

  it("reads a stream that breaks mid-way as network, cancelling the calls it announced", async () => {
    const { adapter } = adapterWith([stream([sseEvent(say("Let me")), sseEvent(call("c1", "get_cart")), "data: {\"type\":\"te"], "error")]);
    const request = runRequest();
    const parts = await collect(adapter.run(request));
    expect(parts.slice(-2)).toEqual([
      { type: "tool-error", id: "c1", error: expect.stringMatching(/^Error \[cancelled\]/), code: "cancelled" },
      { type: "error", error: CLOUD_MESSAGES.cutOff, code: "network" },
    ]);
    expect(request.calls).toEqual([]);
  });

  it("reads a stream that ends without finish as network", async () => {
    const { adapter } = adapterWith([stream([sseEvent(say("Half a"))])]);
    expect(last(await collect(adapter.run(runRequest())))).toEqual({ type: "error", error: CLOUD_MESSAGES.cutOff, code: "network" });
  });

  it("skips event types this version does not know", async () => {
    const { adapter } = adapterWith([step({ type: "usage", tokens: 12 }, say("Hi."), finish())]);
    expect(types(await collect(adapter.run(runRequest())))).toEqual(["message-start", "text-delta", "step-finish", "finish"]);
  });
});

describe("createCloudAdapter: Stop", () => {
  it("ends with finish aborted promptly when aborted mid-stream, even if the transport ignores the signal", async () => {
    const { adapter } = adapterWith([stream([sseEvent(say("Thinking"))], "hang")]);
    const request = runRequest();
    const parts: AgentStreamPart[] = [];
    const started = Date.now();
    for await (const part of adapter.run(request)) {
      parts.push(part);
      if (part.type === "text-delta") request.controller.abort();
    }
    expect(Date.now() - started).toBeLessThan(1000);
    expect(last(parts)).toEqual({ type: "finish", reason: "aborted" });
  });

  it("ends with finish aborted when aborted while the request is in flight", async () => {
    const { adapter } = adapterWith([() => new Promise<Response>(() => {})]);
    const request = runRequest();
    setTimeout(() => request.controller.abort(), 5);
    expect(await collect(adapter.run(request))).toEqual([{ type: "finish", reason: "aborted" }]);
  });

  it("cancels the remaining calls when aborted during a tool call", async () => {
    const { adapter, double } = adapterWith([step(call("c1", "get_cart"), call("c2", "get_cart"), finish("tool-calls"))]);
    const request = runRequest({
      callTool: () => {
        request.controller.abort();
        return new Promise<ToolOutput>(() => {});
      },
    });
    const parts = await collect(adapter.run(request));
    expect(parts.slice(-3)).toEqual([
      { type: "tool-error", id: "c1", error: expect.stringMatching(/^Error \[cancelled\]/), code: "cancelled" },
      { type: "tool-error", id: "c2", error: expect.stringMatching(/^Error \[cancelled\]/), code: "cancelled" },
      { type: "finish", reason: "aborted" },
    ]);
    expect(request.calls).toHaveLength(1);
    expect(double.posts()).toHaveLength(1);
  });

  it("cancels the body when the consumer stops reading", async () => {
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(sseEvent(say("one"))));
      },
      cancel() {
        cancelled = true;
      },
    });
    const { adapter } = adapterWith([new Response(body, { headers: { "content-type": "text/event-stream" } })]);
    for await (const part of adapter.run(runRequest())) if (part.type === "text-delta") break;
    expect(cancelled).toBe(true);
  });
});

describe("createCloudAdapter: history", () => {
  it("cuts a tool result to 4000 characters when it is recorded, so the next turn repeats the same prefix", async () => {
    const long = "x".repeat(10_000);
    const { adapter, double } = adapterWith([
      step(call("c1", "get_cart"), finish("tool-calls")),
      step(say("Long cart."), finish()),
      step(say("Sure."), finish()),
    ]);
    const turn1 = runRequest({ callTool: async () => textOutput(long) });
    const parts = await collect(adapter.run(turn1));
    // The page gets the whole result; the model gets the first 4000 characters.
    expect(parts).toContainEqual({ type: "tool-result", id: "c1", output: textOutput(long) });
    const sent = double.posts()[1]!.body.messages[1].parts[0].output.content[0].text as string;
    expect(sent).toHaveLength(4000);
    expect(sent.endsWith(TRUNCATION_MARKER)).toBe(true);

    // The session records the parts with its reducer and sends its messages with the next turn.
    let state: SessionState = { messages: turn1.messages, status: "streaming", runId: "r" };
    for (const part of parts) state = sessionReducer(state, { type: "part", runId: "r", part });
    expect(JSON.stringify(state.messages)).toContain(long);
    await collect(adapter.run(runRequest({ messages: [...state.messages, user("and now?")] })));
    const secondStep = double.posts()[1]!.body.messages;
    const nextTurn = double.posts()[2]!.body.messages;
    expect(JSON.stringify(nextTurn.slice(0, secondStep.length))).toBe(JSON.stringify(secondStep));
  });

  it("strips sub-agents' nested runs from the history it sends", async () => {
    const nested: AgentMessage[] = [user("Find the cheapest."), { id: "n1", role: "assistant", parts: [{ type: "text", text: "A1." }] }];
    const history: AgentMessage[] = [
      user("Shop for me"),
      {
        id: "a1",
        role: "assistant",
        parts: [{ type: "tool", id: "d1", name: "delegate_to_finder", input: { task: "x" }, state: "done", output: textOutput("A1."), agent: { id: "finder", messages: nested } }],
      },
      user("thanks"),
    ];
    const { adapter, double } = adapterWith([step(say("You're welcome."), finish())]);
    await collect(adapter.run(runRequest({ messages: history })));
    const sent = double.posts()[0]!.body.messages as AgentMessage[];
    expect(sent[1]!.parts[0]).toEqual({ type: "tool", id: "d1", name: "delegate_to_finder", input: { task: "x" }, state: "done", output: textOutput("A1.") });
    expect(JSON.stringify(sent)).not.toContain("Find the cheapest");
  });

  it("sends at most 160 messages, the window starting at a user message", async () => {
    const history: AgentMessage[] = [];
    for (let index = 0; index < 100; index++) {
      history.push(user(`q${index}`));
      history.push({ id: `a${index}`, role: "assistant", parts: [{ type: "text", text: `a${index}` }] });
      if (index % 3 === 0) history.push({ id: `b${index}`, role: "assistant", parts: [{ type: "text", text: `more ${index}` }] });
    }
    history.push(user("last"));
    const { adapter, double } = adapterWith([step(say("ok"), finish())]);
    await collect(adapter.run(runRequest({ messages: history })));
    const sent = double.posts()[0]!.body.messages as AgentMessage[];
    expect(sent.length).toBeLessThanOrEqual(160);
    expect(sent.length).toBeGreaterThan(155);
    expect(sent[0]!.role).toBe("user");
    expect(sent.at(-1)).toEqual(user("last"));
    expect(sent).toEqual(history.slice(history.length - sent.length));
  });
});

describe("createCloudAdapter: options and status outside a browser", () => {
  it("has the documented defaults and no prepare or models", () => {
    const adapter = createCloudAdapter({ fetch: createFetchDouble().fetch });
    expect(adapter.id).toBe("cloud");
    expect(adapter.label).toBe("Cloud");
    expect(adapter.prepare).toBeUndefined();
    expect(adapter.models).toBeUndefined();
    expect(createCloudAdapter({ id: "shop", label: "Shop assistant" })).toMatchObject({ id: "shop", label: "Shop assistant" });
  });

  it("starts loading and sends no GET on a server (no window)", () => {
    const double = createFetchDouble();
    const adapter = createCloudAdapter({ fetch: double.fetch });
    expect(adapter.status!()).toEqual({ state: "loading" });
    expect(double.requests).toEqual([]);
  });

  it("uses globalThis.fetch by default, looked up when it sends", async () => {
    const double = createFetchDouble({ posts: [step(say("hi"), finish())] });
    const adapter = createCloudAdapter();
    vi.stubGlobal("fetch", double.fetch);
    try {
      expect(last(await collect(adapter.run(runRequest())))).toEqual({ type: "finish", reason: "stop" });
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it.each([
    [{ api: "" }, /api/],
    [{ maxSteps: 0 }, /maxSteps/],
    [{ maxSteps: 1.5 }, /maxSteps/],
    [{ headers: "x" }, /headers/],
    [{ sessionHeaders: {} }, /sessionHeaders/],
    [{ fetch: "fetch" }, /fetch/],
    [{ id: "" }, /id/],
  ])("rejects %j with a TypeError that names the option", (options, message) => {
    expect(() => createCloudAdapter(options as unknown as CloudAdapterOptions)).toThrow(message);
  });
});
