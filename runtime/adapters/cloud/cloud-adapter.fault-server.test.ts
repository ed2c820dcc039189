// The real createCloudAdapter, in Node, against real HTTP servers on
// 127.0.0.1: the real createChatHandler, and a fault server that misbehaves
// the ways networks and servers do. Every failure must end in the documented
// error part: never a hang, never an unhandled rejection. With no page in
// Node, req.callTool is a stand-in that records the calls.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createChatHandler } from "../../server/create-chat-handler.js";
import { scriptedModel, textStep, toolStep } from "../../server/test-support/scripted-model.js";
import { toNodeListener } from "../../server/to-node-listener.js";
import type { AgentRunRequest } from "../../session/agent-adapter.js";
import type { AgentStreamPart } from "../../session/agent-stream-part.js";
import { CLOUD_MESSAGES } from "./cloud-messages.js";
import { createCloudAdapter } from "./create-cloud-adapter.js";

const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);
beforeAll(() => process.on("unhandledRejection", onUnhandled));
afterAll(() => process.off("unhandledRejection", onUnhandled));
afterEach(async () => {
  // Node reports a rejection left unhandled once the microtasks of its tick have run, so by the next
  // macrotask every promise the test settled is accounted for; one rejected later still fails the run (vitest reports it).
  await new Promise((resolve) => setImmediate(resolve));
  expect(unhandled).toEqual([]);
});

async function listen(listener: (request: IncomingMessage, response: ServerResponse) => void) {
  const server: Server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/chat`;
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function request(calls: string[] = []): AgentRunRequest {
  return {
    messages: [{ id: "u1", role: "user", parts: [{ type: "text", text: "Buy socks" }] }],
    tools: [{ name: "add_to_cart", description: "Add a product.", inputSchema: { type: "object", properties: { sku: { type: "string" } } } }],
    signal: new AbortController().signal,
    callTool: async (call) => {
      calls.push(`${call.name} ${JSON.stringify(call.input)}`);
      return { content: [{ type: "text", text: "Added." }] };
    },
  };
}

/** Every part of one run, failing the test if the run takes over 5 s (a hang). */
async function collect(parts: AsyncIterable<AgentStreamPart>): Promise<AgentStreamPart[]> {
  const out: AgentStreamPart[] = [];
  const run = (async () => {
    for await (const part of parts) out.push(part);
  })();
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the run hung after ${JSON.stringify(out)}`)), 5000);
  });
  try {
    await Promise.race([run, hang]);
  } finally {
    clearTimeout(timer);
  }
  return out;
}

describe("createCloudAdapter against the real createChatHandler over HTTP", () => {
  it("runs a tool step and then the answer step, one POST each", async () => {
    const model = scriptedModel([toolStep("add_to_cart", { sku: "socks" }), textStep("Added socks.")]);
    const served = await listen(toNodeListener(createChatHandler({ model })));
    try {
      const calls: string[] = [];
      const parts = await collect(createCloudAdapter({ api: served.url }).run(request(calls)));
      expect(calls).toEqual(['add_to_cart {"sku":"socks"}']);
      // The model streams its text in 8-character deltas.
      expect(parts.map((part) => part.type).filter((type, index, all) => type !== all[index - 1])).toEqual([
        "message-start",
        "tool-call",
        "tool-result",
        "step-finish",
        "message-start",
        "text-delta",
        "step-finish",
        "finish",
      ]);
      expect(parts.map((part) => (part.type === "text-delta" ? part.delta : "")).join("")).toBe("Added socks.");
      expect(parts.at(-1)).toEqual({ type: "finish", reason: "stop" });
      expect(model.doStreamCalls).toHaveLength(2);
    } finally {
      await served.close();
    }
  });
});

const VALID = 'data: {"type":"text-delta","delta":"Hello there, "}\n\ndata: {"type":"text-delta","delta":"ünïcode ✓"}\n\ndata: {"type":"finish","reason":"stop"}\n\n';

describe("createCloudAdapter against a fault server", () => {
  let fault: (request: IncomingMessage, response: ServerResponse) => void = () => {};
  const seen: string[] = [];
  let served: Awaited<ReturnType<typeof listen>>;
  beforeAll(async () => {
    served = await listen((request, response) => {
      seen.push(request.method!);
      request.resume();
      request.on("end", () => fault(request, response));
    });
  });
  afterAll(() => served.close());
  afterEach(() => {
    seen.length = 0;
  });

  const json = (response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    response.writeHead(status, { "content-type": "application/json", ...headers });
    response.end(JSON.stringify(body));
  };
  const lastPart = async () => (await collect(createCloudAdapter({ api: served.url }).run(request()))).at(-1);

  it("a connection reset before any header is a network error", async () => {
    fault = (req) => req.socket.destroy();
    expect(await lastPart()).toMatchObject({ type: "error", code: "network" });
  });

  it("a stream dropped at any byte offset is a network error", async () => {
    const bytes = Buffer.from(VALID);
    const end = bytes.indexOf('data: {"type":"finish"');
    // Offsets from a fixed seed: every run of the suite tries the same ones.
    let seed = 7;
    const offsets = Array.from({ length: 12 }, () => ((seed = (seed * 48271) % 2147483647) % end) + 1);
    for (const offset of offsets) {
      fault = (_req, response) => {
        response.writeHead(200, { "content-type": "text/event-stream" });
        response.write(bytes.subarray(0, offset), () => setTimeout(() => response.socket?.destroy(), 5));
      };
      expect(await lastPart(), `dropped at byte ${offset}`).toMatchObject({ type: "error", code: "network" });
    }
  });

  it("malformed stream data is a network error", async () => {
    fault = (_req, response) => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.end('data: {"type":"text-delta","delta":"ok"}\n\ndata: {not json\n\n');
    };
    expect(await lastPart()).toEqual({ type: "error", error: CLOUD_MESSAGES.unreadable, code: "network" });
  });

  it.each([
    ["429 with a short Retry-After", 429, { error: "rate_limited", message: "x" }, { "retry-after": "30" }, CLOUD_MESSAGES.rateLimited(30), "rate_limited"],
    ["429 with Retry-After over an hour", 429, { error: "rate_limited", message: "x" }, { "retry-after": "7200" }, CLOUD_MESSAGES.dailyLimit, "rate_limited"],
    ["503 daily_budget", 503, { error: "busy", message: "x", reason: "daily_budget" }, {}, CLOUD_MESSAGES.dailyLimit, "rate_limited"],
    ["503 busy", 503, { error: "busy", message: "x" }, {}, CLOUD_MESSAGES.busy, "busy"],
    ["400", 400, { error: "bad_request", message: "x" }, {}, CLOUD_MESSAGES.badRequest, "bad_request"],
    ["413", 413, { error: "payload_too_large", message: "x" }, {}, CLOUD_MESSAGES.tooLong, "bad_request"],
    ["415", 415, { error: "unsupported_media_type", message: "x" }, {}, CLOUD_MESSAGES.badRequest, "bad_request"],
  ])("%s ends in its documented error part", async (_name, status, body, headers, message, code) => {
    fault = (_req, response) => json(response, status, body, headers);
    expect(await lastPart()).toEqual({ type: "error", error: message, ...(code && { code }) });
  });

  it("503 chat_disabled ends the run and turns the status unavailable", async () => {
    fault = (_req, response) => json(response, 503, { error: "chat_disabled", message: "x" });
    const adapter = createCloudAdapter({ api: served.url });
    const parts = await collect(adapter.run(request()));
    expect(parts.at(-1)).toEqual({ type: "error", error: CLOUD_MESSAGES.notConfigured, code: "chat_disabled" });
    expect(adapter.status?.()).toEqual({ state: "unavailable", reason: CLOUD_MESSAGES.notConfigured });
  });

  it("401 session_required then success: GETs a session and retries once", async () => {
    let posts = 0;
    fault = (req, response) => {
      if (req.method === "GET") return json(response, 200, { enabled: true });
      posts++;
      if (posts === 1) return json(response, 401, { error: "session_required", message: "x" });
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.end(VALID);
    };
    const parts = await collect(createCloudAdapter({ api: served.url }).run(request()));
    expect(seen).toEqual(["POST", "GET", "POST"]);
    expect(parts.at(-1)).toEqual({ type: "finish", reason: "stop" });
    expect(parts.filter((part) => part.type === "text-delta").map((part) => part.delta).join("")).toBe("Hello there, ünïcode ✓");
  });

  it("401 twice: the session error, after one retry", async () => {
    fault = (req, response) =>
      req.method === "GET" ? json(response, 200, { enabled: true }) : json(response, 401, { error: "session_required", message: "x" });
    expect(await lastPart()).toEqual({ type: "error", error: CLOUD_MESSAGES.sessionFailed, code: "session_required" });
    expect(seen).toEqual(["POST", "GET", "POST"]);
  });
});
