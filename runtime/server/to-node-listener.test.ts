import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { toNodeListener, type FetchHandler, type NodeListener } from "./to-node-listener.js";

type Middleware = (request: IncomingMessage, response: ServerResponse, next: (error?: unknown) => void) => void;

const closers: Array<() => Promise<void>> = [];

async function listen(listener: (request: IncomingMessage, response: ServerResponse) => void): Promise<string> {
  const server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Mounts `middleware` at `path` the way Connect (Vite's dev server) and Express do: the prefix is cut from `url`, `originalUrl` keeps it. */
function mount(path: string, middleware: Middleware, fallback: (error?: unknown) => void = () => {}) {
  return (request: IncomingMessage, response: ServerResponse) => {
    const url = request.url ?? "/";
    if (!url.startsWith(path)) {
      response.writeHead(404).end();
      return;
    }
    Object.assign(request, { originalUrl: url, url: url.slice(path.length) || "/" });
    middleware(request, response, (error) => {
      fallback(error);
      response.writeHead(599).end();
    });
  };
}

afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

describe("toNodeListener", () => {
  it("keeps the mount path in the URL, streams the body in and the response out", async () => {
    const handler: FetchHandler = async (request) =>
      new Response(JSON.stringify({ url: new URL(request.url).pathname + new URL(request.url).search, method: request.method, body: await request.text() }), {
        status: 201,
        headers: { "content-type": "application/json", "x-extra": "1" },
      });
    const origin = await listen(mount("/api/chat", toNodeListener(handler)));
    const response = await fetch(`${origin}/api/chat?x=1`, { method: "POST", body: "hello" });
    expect(response.status).toBe(201);
    expect(response.headers.get("x-extra")).toBe("1");
    expect(await response.json()).toEqual({ url: "/api/chat?x=1", method: "POST", body: "hello" });
  });

  it("sends every Set-Cookie header", async () => {
    const handler: FetchHandler = async () => {
      const headers = new Headers();
      headers.append("set-cookie", "a=1; Path=/");
      headers.append("set-cookie", "b=2; Path=/");
      return new Response(null, { status: 204, headers });
    };
    const origin = await listen(toNodeListener(handler) as (request: IncomingMessage, response: ServerResponse) => void);
    const response = await fetch(origin);
    expect(response.headers.getSetCookie()).toEqual(["a=1; Path=/", "b=2; Path=/"]);
  });

  it("reads a body an Express parser already consumed", async () => {
    const handler: FetchHandler = async (request) => new Response(await request.text());
    const listener = toNodeListener(handler);
    const parsed: Middleware = (request, response) => {
      let text = "";
      request.on("data", (chunk: Buffer) => (text += chunk.toString()));
      request.on("end", () => {
        Object.assign(request, { body: JSON.parse(text) as unknown });
        listener(request, response);
      });
    };
    const origin = await listen(mount("/api", parsed));
    const response = await fetch(`${origin}/api`, { method: "POST", headers: { "content-type": "application/json" }, body: '{"a": 1}' });
    expect(await response.text()).toBe('{"a":1}');
  });

  it("answers 500 when the handler throws, or passes the error to next", async () => {
    const failing: FetchHandler = async () => {
      throw new Error("boom");
    };
    const plain = await listen(toNodeListener(failing) as (request: IncomingMessage, response: ServerResponse) => void);
    const response = await fetch(plain);
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ error: "internal", message: "The chat endpoint failed. Try again." });

    const next = vi.fn();
    const mounted = await listen(mount("/api", toNodeListener(failing) as NodeListener as Middleware, next));
    expect((await fetch(`${mounted}/api`)).status).toBe(599);
    expect(next).toHaveBeenCalledWith(expect.objectContaining({ message: "boom" }));
  });

  it("aborts request.signal and cancels the body when the client goes away", async () => {
    let cancelled: () => void = () => {};
    const wasCancelled = new Promise<void>((resolve) => (cancelled = resolve));
    const signalAborted = vi.fn();
    const handler: FetchHandler = async (request) => {
      request.signal.addEventListener("abort", signalAborted);
      return new Response(
        new ReadableStream({
          start(controller) {
            controller.enqueue(new TextEncoder().encode("first"));
          },
          cancel() {
            cancelled();
          },
        }),
      );
    };
    const origin = await listen(toNodeListener(handler) as (request: IncomingMessage, response: ServerResponse) => void);
    const response = await fetch(origin);
    const reader = response.body!.getReader();
    await reader.read();
    await reader.cancel();
    await wasCancelled;
    expect(signalAborted).toHaveBeenCalled();
  });
});
