/**
 * Sessions behind Cloudflare Turnstile, over real HTTP on 127.0.0.1. There
 * is no network here: siteverify is a fetch double, named as such below.
 */
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import type { ChatHandlerOptions } from "./chat-handler-options.js";
import { createChatHandler } from "./create-chat-handler.js";
import { createMemoryCounterStore } from "./counter-store.js";
import { scriptedModel, textStep } from "./test-support/scripted-model.js";
import { expectNoSecretsInResponses, postJson, SECRETS, serveHandler, user, type Served } from "./test-support/serve-handler.js";
import { SITEVERIFY_URL, type TurnstileOptions } from "./verify-turnstile.js";
import { clearOfWindowEdge } from "./test-support/clear-of-window-edge.js";

const servers: Served[] = [];

interface Verdict {
  success: boolean;
  action?: string;
  hostname?: string;
  "error-codes"?: string[];
}

/** A fetch double standing in for Cloudflare's siteverify: answers `verdict` and records what it was sent. */
function siteverifyDouble(verdict: (token: string) => Verdict | Promise<never>) {
  return vi.fn(async (url: RequestInfo | URL, init?: RequestInit) => {
    expect(String(url)).toBe(SITEVERIFY_URL);
    const form = new URLSearchParams(String(init?.body));
    const answer = await verdict(form.get("response") ?? "");
    return new Response(JSON.stringify(answer), { headers: { "content-type": "application/json" } });
  });
}

const passing = (): Verdict => ({ success: true, action: "web_agents_chat", hostname: "127.0.0.1" });

async function serve(turnstile: Partial<TurnstileOptions>, options: Partial<ChatHandlerOptions> = {}) {
  const logger = { warn: vi.fn(), error: vi.fn() };
  const served = await serveHandler(
    createChatHandler({
      model: scriptedModel([textStep("ok")]),
      logger,
      session: { secret: SECRETS.sessionSecret, turnstile: { secretKey: SECRETS.turnstileSecret, ...turnstile } },
      ...options,
    }),
  );
  servers.push(served);
  return { served, logger };
}

const startSession = (url: string, token: string) => fetch(url, { headers: { "x-turnstile-token": token } });

afterEach(async () => {
  await Promise.all(servers.splice(0).map((served) => served.close()));
});

afterAll(async () => {
  await expectNoSecretsInResponses();
});

describe("Turnstile sessions", () => {
  it("a valid token (siteverify double says success) starts a session the POST can use", async () => {
    const fetchDouble = siteverifyDouble(passing);
    const { served } = await serve({ action: "web_agents_chat", fetch: fetchDouble as typeof fetch });

    // The availability check carries no token: it answers, but starts no session.
    const check = await fetch(served.url);
    expect(await check.json()).toMatchObject({ enabled: true });
    expect(check.headers.get("set-cookie")).toBeNull();
    expect((await postJson(served.url, { messages: [user("hi")] })).status).toBe(401);

    const started = await startSession(served.url, "token-1");
    expect(started.status).toBe(200);
    const cookie = started.headers.get("set-cookie")?.split(";")[0] ?? "";
    expect(cookie).toMatch(/^webmcp_agents_session=/);
    const form = new URLSearchParams(String(fetchDouble.mock.calls[0]?.[1]?.body));
    expect(form.get("secret")).toBe(SECRETS.turnstileSecret);
    expect(form.get("response")).toBe("token-1");
    expect(form.get("remoteip")).toBe("127.0.0.1");

    const post = await postJson(served.url, { messages: [user("hi")] }, { cookie });
    expect(post.status).toBe(200);
    await post.text();
  });

  it("a token for another action (siteverify double) is refused with 401 turnstile_failed", async () => {
    const { served } = await serve({
      action: "web_agents_chat",
      fetch: siteverifyDouble(() => ({ ...passing(), action: "login" })) as typeof fetch,
    });
    const response = await startSession(served.url, "token-2");
    expect(response.status).toBe(401);
    expect(response.headers.get("set-cookie")).toBeNull();
    expect(await response.json()).toMatchObject({
      error: "session_required",
      reason: "turnstile_failed",
      message: expect.stringContaining('action "login"'),
    });
  });

  it("does not check the action when none is configured", async () => {
    const { served } = await serve({ fetch: siteverifyDouble(() => ({ ...passing(), action: "anything" })) as typeof fetch });
    expect((await startSession(served.url, "token-3")).status).toBe(200);
  });

  it("a token solved on another hostname (siteverify double) is refused", async () => {
    const { served } = await serve({ fetch: siteverifyDouble(() => ({ ...passing(), hostname: "evil.example" })) as typeof fetch });
    const response = await startSession(served.url, "token-4");
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ reason: "turnstile_failed", message: expect.stringContaining("evil.example") });
  });

  it("accepts the hostnames option and allowedOrigins' hostnames", async () => {
    const verdict = siteverifyDouble(() => ({ ...passing(), hostname: "shop.example" }));
    const { served } = await serve({ fetch: verdict as typeof fetch }, { allowedOrigins: ["https://shop.example"] });
    expect((await startSession(served.url, "token-5")).status).toBe(200);
    const { served: listed } = await serve({ fetch: verdict as typeof fetch, hostnames: ["shop.example"] });
    expect((await startSession(listed.url, "token-6")).status).toBe(200);
  });

  it("a replayed token is refused even when the siteverify double would pass it again", async () => {
    const fetchDouble = siteverifyDouble(passing);
    const { served } = await serve({ fetch: fetchDouble as typeof fetch });
    expect((await startSession(served.url, "token-7")).status).toBe(200);
    const replay = await startSession(served.url, "token-7");
    expect(replay.status).toBe(401);
    expect(await replay.json()).toMatchObject({ message: expect.stringContaining("already used") });
    expect(fetchDouble).toHaveBeenCalledTimes(1);
  });

  it("a token Cloudflare refuses (siteverify double says success: false) is a 401 naming its error codes", async () => {
    const { served } = await serve({
      fetch: siteverifyDouble(() => ({ success: false, "error-codes": ["timeout-or-duplicate"] })) as typeof fetch,
    });
    const response = await startSession(served.url, "token-8");
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ message: expect.stringContaining("timeout-or-duplicate") });
  });

  it.each([
    ["throws (a siteverify double with no network)", () => Promise.reject(new TypeError("fetch failed"))],
    ["answers HTTP 500 (siteverify double)", () => Promise.resolve(new Response("oops", { status: 500 }))],
    ["never answers (siteverify double past the timeout)", () => new Promise<Response>(() => {})],
  ])("fails closed when siteverify %s: 503 busy, no session, logged", async (_name, answer) => {
    const { served, logger } = await serve({ fetch: vi.fn(answer) as typeof fetch, timeout: 200 });
    const response = await startSession(served.url, "token-9");
    expect(response.status).toBe(503);
    expect(response.headers.get("set-cookie")).toBeNull();
    expect(await response.json()).toMatchObject({ error: "busy", reason: "turnstile_unavailable" });
    expect(logger.error).toHaveBeenCalledWith(expect.stringContaining("fail closed"), expect.anything());
    expect((await postJson(served.url, { messages: [user("hi")] })).status).toBe(401);
  });

  it("counts session-starting GETs against the rate limit, before calling the siteverify double", async () => {
    // The limit counts in fixed windows: all of this test's requests in one.
    await clearOfWindowEdge(60_000);
    const fetchDouble = siteverifyDouble(passing);
    const { served } = await serve({ fetch: fetchDouble as typeof fetch }, { rateLimit: { requests: 1, windowMs: 60_000 } });
    expect((await startSession(served.url, "token-11")).status).toBe(200);
    expect((await startSession(served.url, "token-12")).status).toBe(429);
    expect(fetchDouble).toHaveBeenCalledTimes(1);
  });

  it("fails closed when the store that remembers used tokens is unreachable", async () => {
    const broken = createMemoryCounterStore();
    broken.increment = () => Promise.reject(new Error("store down"));
    const { served } = await serve({ fetch: siteverifyDouble(passing) as typeof fetch }, { store: broken });
    expect((await startSession(served.url, "token-10")).status).toBe(503);
  });
});
