import type { IncomingMessage, ServerResponse } from "node:http";
import { setClientAddress } from "./client-address.js";

/** A Fetch-API handler, as `createChatHandler` returns. */
export type FetchHandler = (request: Request) => Promise<Response>;

/** A node:http request listener that is also Connect/Express/Vite middleware. */
export type NodeListener = (request: IncomingMessage, response: ServerResponse, next?: (error?: unknown) => void) => void;

/**
 * Serves a Fetch-API handler from Node: `http.createServer(listener)`, or
 * `server.middlewares.use("/api/chat", listener)` in a Vite plugin's
 * `configureServer` (and Express's `app.use`). The request URL keeps the
 * path the middleware was mounted at (`originalUrl`); the body streams in;
 * the response streams out with backpressure; a client that disconnects
 * aborts `request.signal` and cancels the response body. The socket's address
 * is recorded for the default rate-limit key. Uses no Node module at runtime,
 * so importing it on an edge runtime is harmless.
 */
export function toNodeListener(handler: FetchHandler): NodeListener {
  return (incoming, outgoing, next) => {
    serve(handler, incoming, outgoing).catch((error: unknown) => {
      if (next !== undefined) return next(error);
      if (!outgoing.headersSent) {
        outgoing.writeHead(500, { "content-type": "application/json; charset=utf-8" });
        outgoing.end(JSON.stringify({ error: "internal", message: "The chat endpoint failed. Try again." }));
      } else outgoing.destroy();
    });
  };
}

async function serve(handler: FetchHandler, incoming: IncomingMessage, outgoing: ServerResponse): Promise<void> {
  const abort = new AbortController();
  outgoing.on("close", () => {
    if (!outgoing.writableFinished) abort.abort();
  });
  const request = toRequest(incoming, abort.signal);
  if (incoming.socket.remoteAddress !== undefined) setClientAddress(request, incoming.socket.remoteAddress);
  const response = await handler(request);

  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    if (name !== "set-cookie") headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) headers["set-cookie"] = cookies;
  if (response.statusText) outgoing.writeHead(response.status, response.statusText, headers);
  else outgoing.writeHead(response.status, headers);
  if (response.body === null) {
    outgoing.end();
    return;
  }
  outgoing.flushHeaders();
  const reader = response.body.getReader();
  abort.signal.addEventListener("abort", () => void reader.cancel().catch(() => {}), { once: true });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!outgoing.write(value)) await drained(outgoing, abort.signal);
    }
    outgoing.end();
  } catch (error) {
    // A cancelled body (client gone) is the normal way out; anything else cuts the connection.
    if (!abort.signal.aborted) outgoing.destroy(error instanceof Error ? error : undefined);
  }
}

function toRequest(incoming: IncomingMessage, signal: AbortSignal): Request {
  const encrypted = (incoming.socket as { encrypted?: boolean }).encrypted === true;
  const host = incoming.headers.host ?? "localhost";
  const path = (incoming as IncomingMessage & { originalUrl?: string }).originalUrl ?? incoming.url ?? "/";
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (value === undefined) continue;
    for (const entry of Array.isArray(value) ? value : [value]) headers.append(name, entry);
  }
  const method = incoming.method ?? "GET";
  const hasBody = method !== "GET" && method !== "HEAD";
  return new Request(`${encrypted ? "https" : "http"}://${host}${path}`, {
    method,
    headers,
    signal,
    ...(hasBody ? { body: parsedBody(incoming) ?? bodyStream(incoming), duplex: "half" } : {}),
  } as RequestInit);
}

/** A body an Express parser (`express.json()`) already read, serialised again; undefined when none did. */
function parsedBody(incoming: IncomingMessage): string | Uint8Array | undefined {
  const body = (incoming as IncomingMessage & { body?: unknown }).body;
  if (body === undefined || !incoming.readableEnded) return undefined;
  if (typeof body === "string" || body instanceof Uint8Array) return body;
  return JSON.stringify(body);
}

/** The request body as a web stream, pulled so a slow handler pauses the socket. */
function bodyStream(incoming: IncomingMessage): ReadableStream<Uint8Array> {
  const chunks = incoming[Symbol.asyncIterator]();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = await chunks.next();
        if (next.done === true) controller.close();
        else controller.enqueue(typeof next.value === "string" ? new TextEncoder().encode(next.value) : new Uint8Array(next.value));
      } catch (error) {
        controller.error(error);
      }
    },
    async cancel() {
      await chunks.return?.();
    },
  });
}

function drained(outgoing: ServerResponse, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      outgoing.off("drain", done);
      signal.removeEventListener("abort", done);
      resolve();
    };
    outgoing.on("drain", done);
    signal.addEventListener("abort", done, { once: true });
  });
}
