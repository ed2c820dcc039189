/**
 * Regressions from issue 16, each over real HTTP on 127.0.0.1 with the AI
 * SDK's MockLanguageModelV3 standing in for a provider: deep JSON, sessions
 * minted to dodge the rate limit, tools named after Object.prototype's keys,
 * and page-supplied delegate tools.
 */
import type { LanguageModelV3CallOptions } from "@ai-sdk/provider";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { defineWebAgent } from "../agent/define-web-agent.js";
import type { ChatHandlerOptions } from "./chat-handler-options.js";
import { createChatHandler } from "./create-chat-handler.js";
import { MAX_JSON_DEPTH } from "./read-chat-request.js";
import { parseEvents } from "./test-support/read-events.js";
import { scriptedModel, textStep, toolStep } from "./test-support/scripted-model.js";
import { expectNoSecretsInResponses, pageTool, postJson, SECRETS, serveHandler, user, type Served } from "./test-support/serve-handler.js";
import { clearOfWindowEdge } from "./test-support/clear-of-window-edge.js";

const servers: Served[] = [];

async function serve(options: Partial<ChatHandlerOptions> = {}): Promise<{ served: Served; logger: { warn: ReturnType<typeof vi.fn>; error: ReturnType<typeof vi.fn> } }> {
  const logger = { warn: vi.fn(), error: vi.fn() };
  const served = await serveHandler(createChatHandler({ model: scriptedModel([textStep("ok")]), logger, ...options }));
  servers.push(served);
  return { served, logger };
}

afterEach(async () => {
  await Promise.all(servers.splice(0).map((served) => served.close()));
});

afterAll(async () => {
  await expectNoSecretsInResponses();
});

/** `{"a":{"a":…1…}}`, `levels` objects deep, written as text (JSON.stringify would itself overflow). */
const nested = (levels: number) => `${'{"a":'.repeat(levels)}1${"}".repeat(levels)}`;

/** A body whose one tool's inputSchema nests `levels` objects (the body's own depth is levels + 3). */
const deepSchemaBody = (levels: number) =>
  `{"messages":[{"id":"u1","role":"user","parts":[{"type":"text","text":"hi"}]}],` +
  `"tools":[{"name":"deep","description":"Deep.","inputSchema":${nested(levels)}}]}`;

/** A body whose assistant tool call's input nests `levels` objects (the body's own depth is levels + 5). */
const deepInputBody = (levels: number) =>
  `{"tools":[],"messages":[{"id":"u1","role":"user","parts":[{"type":"text","text":"hi"}]},` +
  `{"id":"a1","role":"assistant","parts":[{"type":"tool","id":"c1","name":"deep","state":"done",` +
  `"output":{"content":[{"type":"text","text":"ok"}]},"input":${nested(levels)}}]},` +
  `{"id":"u2","role":"user","parts":[{"type":"text","text":"again"}]}]}`;

describe("deep JSON", () => {
  const bodies = { "a tool schema": deepSchemaBody, "a tool input": deepInputBody };
  for (const [where, body] of Object.entries(bodies)) {
    for (const budget of [false, true]) {
      it(`400 bad_request for 50,000 levels in ${where}, ${budget ? "with" : "without"} dailyBudget; the server stays healthy`, async () => {
        const { served, logger } = await serve({
          maxBodyBytes: 1_000_000,
          ...(budget ? { dailyBudget: { tokens: 1_000_000 } } : {}),
        });
        const deep = await postJson(served.url, body(50_000));
        expect(deep.status).toBe(400);
        expect(await deep.json()).toEqual({
          error: "bad_request",
          message: `The request nests JSON more than ${MAX_JSON_DEPTH} levels deep; flatten the tool's input schema or the tool call's input.`,
        });
        expect(logger.error).not.toHaveBeenCalled();
        const next = await postJson(served.url, { messages: [user("hi")] });
        expect(next.status).toBe(200);
        expect(parseEvents(await next.text()).at(-1)).toEqual({ type: "finish", reason: "stop" });
      });
    }
  }

  it(`answers a body exactly ${MAX_JSON_DEPTH} levels deep normally (with dailyBudget), and refuses one level more`, async () => {
    const { served, logger } = await serve({ dailyBudget: { tokens: 1_000_000 } });
    const atLimit = await postJson(served.url, deepSchemaBody(MAX_JSON_DEPTH - 3));
    expect(atLimit.status).toBe(200);
    await atLimit.text();
    const inputAtLimit = await postJson(served.url, deepInputBody(MAX_JSON_DEPTH - 5));
    expect(inputAtLimit.status).toBe(200);
    await inputAtLimit.text();
    expect((await postJson(served.url, deepSchemaBody(MAX_JSON_DEPTH - 2))).status).toBe(400);
    expect((await postJson(served.url, deepInputBody(MAX_JSON_DEPTH - 4))).status).toBe(400);
    expect(logger.error).not.toHaveBeenCalled();
  });

  it("does not count brackets inside strings", async () => {
    const { served } = await serve({ dailyBudget: { tokens: 1_000_000 } });
    const response = await postJson(served.url, { messages: [user(`${"[{".repeat(5000)} \\" ${"}]".repeat(5000)}`)] });
    expect(response.status).toBe(200);
    await response.text();
  });
});

describe("rate limit with sessions minted freely", () => {
  const mintCookie = async (url: string, headers: Record<string, string> = {}) =>
    (await fetch(url, { headers })).headers.get("set-cookie")?.split(";")[0] ?? "";

  it("6 POSTs each with a fresh cookie get at most the limit of 200s, then 429 rate_limited", async () => {
    // The limit counts in fixed windows: all of this test's requests in one.
    await clearOfWindowEdge(60_000);
    const { served } = await serve({ rateLimit: { requests: 2, windowMs: 60_000 }, session: { secret: SECRETS.sessionSecret } });
    const statuses: number[] = [];
    let refusal: unknown;
    for (let index = 0; index < 6; index += 1) {
      const cookie = await mintCookie(served.url);
      expect(cookie).toMatch(/^webmcp_agents_session=/);
      const response = await postJson(served.url, { messages: [user("hi")] }, { cookie });
      statuses.push(response.status);
      if (response.status === 429) {
        expect(Number(response.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
        refusal = await response.json();
      } else await response.text();
    }
    expect(statuses).toEqual([200, 200, 429, 429, 429, 429]);
    expect(refusal).toEqual({
      error: "rate_limited",
      message: expect.stringMatching(/^Too many messages in a short time\. Try again in \d+ seconds?\.$/),
    });
  });

  it("limits two clients independently, each across its own fresh sessions", async () => {
    // The limit counts in fixed windows: all of this test's requests in one.
    await clearOfWindowEdge(60_000);
    const { served } = await serve({
      rateLimit: { requests: 2, windowMs: 60_000 },
      session: { secret: SECRETS.sessionSecret },
      clientKey: (request) => request.headers.get("x-client") ?? undefined,
    });
    const post = async (client: string) => {
      const cookie = await mintCookie(served.url, { "x-client": client });
      const response = await postJson(served.url, { messages: [user("hi")] }, { cookie, "x-client": client });
      await response.text();
      return response.status;
    };
    const a = [await post("a"), await post("a"), await post("a")];
    const b = [await post("b"), await post("b"), await post("b")];
    expect(a).toEqual([200, 200, 429]);
    expect(b).toEqual([200, 200, 429]);
  });

  it("a session's own bucket still applies: one session cannot spend another client's share", async () => {
    // The limit counts in fixed windows: all of this test's requests in one.
    await clearOfWindowEdge(60_000);
    const { served } = await serve({
      rateLimit: { requests: 2, windowMs: 60_000 },
      session: { secret: SECRETS.sessionSecret },
      clientKey: (request) => request.headers.get("x-client") ?? undefined,
    });
    const cookie = await mintCookie(served.url);
    const statuses: number[] = [];
    for (const client of ["a", "b", "c"]) {
      const response = await postJson(served.url, { messages: [user("hi")] }, { cookie, "x-client": client });
      await response.text();
      statuses.push(response.status);
    }
    expect(statuses).toEqual([200, 200, 429]);
  });
});

describe("tool names that are Object.prototype's keys", () => {
  it("__proto__, constructor and toString reach the model intact, and a call to __proto__ comes back", async () => {
    const model = scriptedModel([toolStep("__proto__", { id: "x" })]);
    const { served } = await serve({ model });
    const names = ["__proto__", "constructor", "toString", "get_cart"];
    const response = await postJson(served.url, { messages: [user("go")], tools: names.map((name) => pageTool(name)) });
    expect(response.status).toBe(200);
    expect(parseEvents(await response.text())).toEqual([
      { type: "tool-call", id: "call-1", name: "__proto__", input: { id: "x" } },
      { type: "finish", reason: "tool-calls" },
    ]);
    const call = model.doStreamCalls[0] as LanguageModelV3CallOptions;
    expect(call.tools?.map((tool) => tool.name)).toEqual(names);
    for (const name of names) {
      expect(call.tools?.find((tool) => tool.name === name)).toMatchObject({
        type: "function",
        description: `The ${name} tool.`,
        inputSchema: { type: "object", properties: { id: { type: "string" } } },
      });
    }
  });
});

describe("page-supplied delegate_to_* tools", () => {
  const pageTools = [pageTool("get_cart"), pageTool("delegate_to_orders", "Page-made."), pageTool("delegate_to_")];
  const toolsSeen = (model: ReturnType<typeof scriptedModel>) =>
    (model.doStreamCalls[0] as LanguageModelV3CallOptions).tools?.map((tool) => ("description" in tool ? `${tool.name}: ${tool.description}` : tool.name));

  it("pass as they are with no agent named (no agent, no delegates: selectTools as the defineWebAgent page says)", async () => {
    const model = scriptedModel([textStep("ok")]);
    const { served } = await serve({ model });
    await (await postJson(served.url, { messages: [user("hi")], tools: pageTools })).text();
    expect(toolsSeen(model)).toEqual(["get_cart: The get_cart tool.", "delegate_to_orders: Page-made.", "delegate_to_: The delegate_to_ tool."]);
  });

  it("are dropped for an agent without sub-agents", async () => {
    const model = scriptedModel([textStep("ok")]);
    const { served } = await serve({ model, agents: [defineWebAgent({ id: "shopper", instructions: "Shop." })] });
    await (await postJson(served.url, { messages: [user("hi")], tools: pageTools, agent: "shopper" })).text();
    expect(toolsSeen(model)).toEqual(["get_cart: The get_cart tool."]);
  });

  it("are replaced by the server's own delegate for an agent with that sub-agent", async () => {
    const model = scriptedModel([textStep("ok")]);
    const orders = defineWebAgent({ id: "orders", description: "Tracks orders.", instructions: "Track." });
    const { served } = await serve({ model, agents: [defineWebAgent({ id: "shopper", instructions: "Shop.", agents: [orders] })] });
    await (await postJson(served.url, { messages: [user("hi")], tools: pageTools, agent: "shopper" })).text();
    const seen = toolsSeen(model);
    expect(seen).toHaveLength(2);
    expect(seen?.[0]).toBe("get_cart: The get_cart tool.");
    expect(seen?.[1]).toMatch(/^delegate_to_orders: Tracks orders\. This hands the task to the orders agent/);
  });
});
