/**
 * Every limit and check of createChatHandler, each with a request that trips
 * it, over real HTTP on 127.0.0.1.
 */
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import type { ChatHandlerOptions } from "./chat-handler-options.js";
import { createSessionCookies } from "./chat-session.js";
import { createChatHandler } from "./create-chat-handler.js";
import { clearOfWindowEdge } from "./test-support/clear-of-window-edge.js";
import { parseEvents } from "./test-support/read-events.js";
import { scriptedModel, textStep } from "./test-support/scripted-model.js";
import {
  expectNoSecretsInResponses,
  pageTool,
  postJson,
  SECRETS,
  serveHandler,
  user,
  type Served,
} from "./test-support/serve-handler.js";

const servers: Served[] = [];

async function serve(options: Partial<ChatHandlerOptions> = {}): Promise<Served> {
  const served = await serveHandler(
    createChatHandler({
      model: scriptedModel([textStep("ok")]),
      logger: { warn: vi.fn(), error: vi.fn() },
      ...options,
    }),
  );
  servers.push(served);
  return served;
}

const ok = { messages: [user("hi")] };

afterEach(async () => {
  await Promise.all(servers.splice(0).map((served) => served.close()));
});

afterAll(async () => {
  await expectNoSecretsInResponses();
});

describe("body checks", () => {
  it("415 unsupported_media_type for a body that is not application/json", async () => {
    const served = await serve();
    const response = await fetch(served.url, { method: "POST", headers: { "content-type": "text/plain" }, body: JSON.stringify(ok) });
    expect(response.status).toBe(415);
    expect(await response.json()).toMatchObject({ error: "unsupported_media_type" });
  });

  it("accepts application/json with a charset parameter", async () => {
    const served = await serve();
    const response = await postJson(served.url, ok, { "content-type": "application/json; charset=utf-8" });
    expect(response.status).toBe(200);
    await response.text();
  });

  it("413 payload_too_large past maxBodyBytes, by content-length", async () => {
    const served = await serve({ maxBodyBytes: 1024 });
    const response = await postJson(served.url, { messages: [user("x".repeat(2000))] });
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ error: "payload_too_large" });
  });

  it("413 payload_too_large past maxBodyBytes for a chunked body with no content-length", async () => {
    const served = await serve({ maxBodyBytes: 1024 });
    const bytes = new TextEncoder().encode(JSON.stringify({ messages: [user("y".repeat(4000))], tools: [] }));
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let offset = 0; offset < bytes.length; offset += 500) controller.enqueue(bytes.slice(offset, offset + 500));
        controller.close();
      },
    });
    const response = await fetch(served.url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
      duplex: "half",
    } as RequestInit);
    expect(response.status).toBe(413);
  });

  it("the default body limit is 256 KB", async () => {
    const served = await serve();
    const response = await postJson(served.url, { messages: [user("z".repeat(262_144))] });
    expect(response.status).toBe(413);
  });

  it.each([
    ["not JSON", "{messages:", /not valid JSON/],
    ["no messages", JSON.stringify({ tools: [] }), /messages: /],
    ["an unknown part type", JSON.stringify({ messages: [{ id: "1", role: "user", parts: [{ type: "image" }] }], tools: [] }), /messages\[0\]\.parts\[0\]/],
    ["a bad role", JSON.stringify({ messages: [{ id: "1", role: "system", parts: [] }], tools: [] }), /messages\[0\]\.role/],
    ["a tool without a schema", JSON.stringify({ messages: [user("hi")], tools: [{ name: "a", description: "" }] }), /tools\[0\]\.inputSchema/],
    ["two tools with one name", JSON.stringify({ messages: [user("hi")], tools: [pageTool("a"), pageTool("a")] }), /unique/],
    ["a bad agent id", JSON.stringify({ messages: [user("hi")], tools: [], agent: "no spaces" }), /agent: /],
  ])("400 bad_request for %s, saying what is wrong", async (_name, body, message) => {
    const served = await serve();
    const response = await postJson(served.url, body);
    expect(response.status).toBe(400);
    const json = (await response.json()) as { error: string; message: string };
    expect(json.error).toBe("bad_request");
    expect(json.message).toMatch(message);
  });

  it("400 past maxMessages (default 200) and maxTools (default 64)", async () => {
    const served = await serve();
    const many = Array.from({ length: 201 }, (_, index) => user(`m${index}`, `id${index}`));
    const tooMany = await postJson(served.url, { messages: many });
    expect(tooMany.status).toBe(400);
    expect(((await tooMany.json()) as { message: string }).message).toMatch(/at most 200 messages/);

    const tools = Array.from({ length: 65 }, (_, index) => pageTool(`tool_${index}`));
    const tooManyTools = await postJson(served.url, { messages: [user("hi")], tools });
    expect(tooManyTools.status).toBe(400);
    expect(((await tooManyTools.json()) as { message: string }).message).toMatch(/at most 64 tools/);

    const fine = await postJson(served.url, { messages: many.slice(0, 200), tools: tools.slice(0, 64) });
    expect(fine.status).toBe(200);
    await fine.text();
  });

  it("the counts are options", async () => {
    const served = await serve({ maxMessages: 2, maxTools: 1 });
    expect((await postJson(served.url, { messages: [user("a"), user("b"), user("c")] })).status).toBe(400);
    expect((await postJson(served.url, { messages: [user("a")], tools: [pageTool("a"), pageTool("b")] })).status).toBe(400);
  });

  it("405 method_not_allowed for other methods", async () => {
    const served = await serve();
    const response = await fetch(served.url, { method: "PUT" });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("GET, POST, OPTIONS");
  });
});

describe("origin check", () => {
  it("403 forbidden_origin for a cross-site Origin, on GET and POST", async () => {
    const served = await serve();
    const get = await fetch(served.url, { headers: { origin: "https://evil.example" } });
    expect(get.status).toBe(403);
    expect(await get.json()).toMatchObject({ error: "forbidden_origin" });
    const post = await postJson(served.url, ok, { origin: "https://evil.example" });
    expect(post.status).toBe(403);
    expect((await postJson(served.url, ok, { origin: "null" })).status).toBe(403);
  });

  it("lets the endpoint's own origin and requests without Origin through", async () => {
    const served = await serve();
    const same = await postJson(served.url, ok, { origin: served.origin });
    expect(same.status).toBe(200);
    expect(same.headers.get("access-control-allow-origin")).toBeNull();
    await same.text();
    const none = await postJson(served.url, ok);
    expect(none.status).toBe(200);
    await none.text();
  });

  it("answers an origin in allowedOrigins with CORS headers, preflight included", async () => {
    const served = await serve({ allowedOrigins: ["https://shop.example/"] });
    const preflight = await fetch(served.url, {
      method: "OPTIONS",
      headers: { origin: "https://shop.example", "access-control-request-headers": "content-type, x-csrf" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("https://shop.example");
    expect(preflight.headers.get("access-control-allow-headers")).toBe("content-type, x-csrf");
    expect(preflight.headers.get("access-control-allow-credentials")).toBe("true");
    const post = await postJson(served.url, ok, { origin: "https://shop.example" });
    expect(post.status).toBe(200);
    expect(post.headers.get("access-control-allow-origin")).toBe("https://shop.example");
    await post.text();
    expect((await fetch(served.url, { method: "OPTIONS", headers: { origin: "https://other.example" } })).status).toBe(403);
  });

  it("refuses an allowedOrigins entry that is not an origin, at creation", () => {
    expect(() => createChatHandler({ model: scriptedModel([]), allowedOrigins: ["shop.example"] })).toThrow(TypeError);
  });
});

describe("sessions", () => {
  const session = { secret: SECRETS.sessionSecret };

  it("401 session_required without a cookie; GET sets one; the POST then succeeds", async () => {
    const served = await serve({ session });
    const refused = await postJson(served.url, ok);
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ error: "session_required" });

    const get = await fetch(served.url);
    expect(await get.json()).toMatchObject({ enabled: true });
    const cookie = get.headers.get("set-cookie") ?? "";
    expect(cookie).toMatch(/^webmcp_agents_session=[\w-]+\.[0-9a-z]+\.[\w-]+; Path=\/api\/chat; Max-Age=86400; HttpOnly; SameSite=Lax$/);

    const accepted = await postJson(served.url, ok, { cookie: cookie.split(";")[0] ?? "" });
    expect(accepted.status).toBe(200);
    expect(parseEvents(await accepted.text()).at(-1)).toEqual({ type: "finish", reason: "stop" });
  });

  it("keeps a valid session on the next GET instead of starting another", async () => {
    const served = await serve({ session });
    const cookie = (await fetch(served.url)).headers.get("set-cookie")?.split(";")[0] ?? "";
    const again = await fetch(served.url, { headers: { cookie } });
    expect(again.headers.get("set-cookie")).toBeNull();
  });

  it("refuses a tampered, foreign or expired cookie", async () => {
    const served = await serve({ session: { ...session, ttl: 1500 } });
    const cookie = (await fetch(served.url)).headers.get("set-cookie")?.split(";")[0] ?? "";
    const [name, value] = cookie.split("=") as [string, string];
    const [id, expiry, signature] = value.split(".") as [string, string, string];
    const forged = `${name}=${id}.${(Number.parseInt(expiry, 36) + 1_000_000).toString(36)}.${signature}`;
    expect((await postJson(served.url, ok, { cookie: forged })).status).toBe(401);
    const foreign = await createSessionCookies({ secret: "another-secret-another-secret-another" }).issue(new Request(served.url));
    expect((await postJson(served.url, ok, { cookie: foreign.setCookie.split(";")[0] ?? "" })).status).toBe(401);
    await new Promise((resolve) => setTimeout(resolve, 1600));
    expect((await postJson(served.url, ok, { cookie })).status).toBe(401);
  });

  it("marks the cookie Secure on https", async () => {
    const cookies = createSessionCookies(session);
    expect((await cookies.issue(new Request("https://shop.example/api/chat"))).setCookie).toMatch(/; Secure$/);
  });

  it("refuses a short secret at creation", () => {
    expect(() => createChatHandler({ model: scriptedModel([]), session: { secret: "short" } })).toThrow(/at least 32 characters/);
  });
});

describe("rate limit", () => {
  it("429 rate_limited with Retry-After past the window's requests, per client", async () => {
    // The limit counts in fixed windows: all of this test's requests in one.
    await clearOfWindowEdge(60_000);
    const served = await serve({
      rateLimit: { requests: 2, windowMs: 60_000 },
      clientKey: (request) => request.headers.get("x-client") ?? undefined,
    });
    for (let index = 0; index < 2; index += 1) {
      const response = await postJson(served.url, ok, { "x-client": "a" });
      expect(response.status).toBe(200);
      await response.text();
    }
    const limited = await postJson(served.url, ok, { "x-client": "a" });
    expect(limited.status).toBe(429);
    const retryAfter = Number(limited.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(await limited.json()).toMatchObject({ error: "rate_limited" });
    const other = await postJson(served.url, ok, { "x-client": "b" });
    expect(other.status).toBe(200);
    await other.text();
  });

  it("keys on the session and the client when sessions are free to mint, and on the socket address by default", async () => {
    // The limit counts in fixed windows: all of this test's requests in one.
    await clearOfWindowEdge(60_000);
    const served = await serve({ rateLimit: { requests: 1, windowMs: 60_000 }, session: { secret: SECRETS.sessionSecret } });
    const first = (await fetch(served.url)).headers.get("set-cookie")?.split(";")[0] ?? "";
    const second = (await fetch(served.url)).headers.get("set-cookie")?.split(";")[0] ?? "";
    expect((await postJson(served.url, ok, { cookie: first })).status).toBe(200);
    expect((await postJson(served.url, ok, { cookie: first })).status).toBe(429);
    // A second session from the same address does not buy a fresh bucket (hostile-requests.test.ts has more).
    expect((await postJson(served.url, ok, { cookie: second })).status).toBe(429);

    const bySocket = await serve({ rateLimit: { requests: 1, windowMs: 60_000 } });
    expect((await postJson(bySocket.url, ok)).status).toBe(200);
    // A forged forwarding header does not buy a fresh bucket: the socket address wins.
    expect((await postJson(bySocket.url, ok, { "x-forwarded-for": "203.0.113.9" })).status).toBe(429);
  });

  it("refuses a malformed rateLimit at creation", () => {
    expect(() => createChatHandler({ model: scriptedModel([]), rateLimit: { requests: 0, windowMs: 1000 } })).toThrow(TypeError);
  });
});

describe("daily budget", () => {
  it("503 busy with reason daily_budget once the day's tokens are spent", async () => {
    // Each step reports 10 + 5 tokens; the reservation is 40.
    const served = await serve({ dailyBudget: { tokens: 30, reserve: 40 } });
    const first = await postJson(served.url, ok);
    expect(first.status).toBe(200);
    await first.text();
    const second = await postJson(served.url, ok);
    expect(second.status).toBe(200);
    await second.text();
    const spent = await postJson(served.url, ok);
    expect(spent.status).toBe(503);
    expect(await spent.json()).toEqual({
      error: "busy",
      reason: "daily_budget",
      message: "The assistant has used today's budget. Try again tomorrow.",
    });
    expect(Number(spent.headers.get("retry-after"))).toBeGreaterThan(0);
  });
});
