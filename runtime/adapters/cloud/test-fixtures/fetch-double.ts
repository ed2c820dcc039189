/**
 * A transport double for `createCloudAdapter({ fetch })`: scripted
 * `Response`s with `ReadableStream` bodies instead of a server. It stands in
 * for the network only; everything above `fetch` runs for real.
 */
import type { ChatWireEvent } from "../../../server/chat-wire.js";

/** One request the double saw. */
export interface RecordedRequest {
  url: string;
  method: string;
  headers: Headers;
  /** The parsed JSON body of a POST. */
  body: any;
}

export type Reply = Response | Error | ((request: RecordedRequest, init: RequestInit) => Response | Promise<Response>);

export interface FetchDouble {
  fetch: typeof fetch;
  requests: RecordedRequest[];
  posts(): RecordedRequest[];
  gets(): RecordedRequest[];
}

/**
 * A `fetch` that answers GETs with `get` (default `{ enabled: true }`) and
 * POSTs with the next of `posts`, in order. An `Error` reply is thrown, as a
 * network failure would be. A POST past the script is a test bug: it throws.
 */
export function createFetchDouble(script: { get?: Reply | Reply[]; posts?: Reply[] } = {}): FetchDouble {
  const requests: RecordedRequest[] = [];
  const posts = [...(script.posts ?? [])];
  const gets = Array.isArray(script.get) ? [...script.get] : undefined;
  const answer = async (reply: Reply | undefined, request: RecordedRequest, init: RequestInit) => {
    if (reply === undefined) throw new Error(`The fetch double has no reply scripted for ${request.method} #${requests.length}.`);
    if (reply instanceof Error) throw reply;
    return typeof reply === "function" ? reply(request, init) : reply;
  };
  const fetchDouble = async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const method = init.method ?? "GET";
    const request: RecordedRequest = {
      url: String(input),
      method,
      headers: new Headers(init.headers),
      body: typeof init.body === "string" ? JSON.parse(init.body) : undefined,
    };
    requests.push(request);
    if (method === "GET") {
      const reply = gets ? gets.shift() : (script.get as Reply | undefined) ?? json(200, { enabled: true });
      return answer(reply instanceof Response ? reply.clone() : reply, request, init);
    }
    return answer(posts.shift(), request, init);
  };
  return {
    fetch: fetchDouble as typeof fetch,
    requests,
    posts: () => requests.filter((request) => request.method === "POST"),
    gets: () => requests.filter((request) => request.method === "GET"),
  };
}

/** A JSON response. */
export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });
}

/** How a scripted stream ends after its chunks: closed, errored (a dropped connection) or never (a stalled one). */
export type StreamEnd = "close" | "error" | "hang";

/** A `text/event-stream` response whose body yields `chunks` one per pull, then ends as `end` says. */
export function stream(chunks: readonly (string | Uint8Array)[], end: StreamEnd = "close"): Response {
  const encoder = new TextEncoder();
  const queue = [...chunks];
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = queue.shift();
      if (next !== undefined) return controller.enqueue(typeof next === "string" ? encoder.encode(next) : next);
      if (end === "close") return controller.close();
      if (end === "error") return controller.error(new TypeError("network error"));
      return new Promise<void>(() => {});
    },
  });
  return new Response(body, { status: 200, headers: { "content-type": "text/event-stream" } });
}

/** One SSE event's bytes. */
export const sseEvent = (event: ChatWireEvent | Record<string, unknown>) => `data: ${JSON.stringify(event)}\n\n`;

/** A step that streams `events`, one SSE event per chunk. */
export const step = (...events: (ChatWireEvent | Record<string, unknown>)[]) => stream(events.map(sseEvent));

export const say = (delta: string): ChatWireEvent => ({ type: "text-delta", delta });
export const call = (id: string, name: string, input: unknown = {}): ChatWireEvent => ({ type: "tool-call", id, name, input });
export const finish = (reason: "stop" | "tool-calls" = "stop"): ChatWireEvent => ({ type: "finish", reason });
