import type { ChatWireEvent } from "./chat-wire.js";

/** What {@link eventStreamResponse} takes besides the events. */
export interface EventStreamOptions {
  /** Extra response headers (CORS, a session cookie). */
  headers?: Record<string, string>;
  /**
   * Milliseconds between `: ping` comment lines while the model is silent
   * (a long reasoning block is sent whole, at its end), so proxies keep the
   * connection open. Default `15_000`.
   */
  heartbeat?: number;
  /** Called once when the stream ends, is cancelled or fails. */
  onClose?: () => void;
}

const encoder = new TextEncoder();

/**
 * A `text/event-stream` response with one `data: <json>` line per event.
 * Pulled, so a slow client slows the model read instead of filling memory;
 * cancelling the response (the client went away) stops the events.
 */
export function eventStreamResponse(events: AsyncIterable<ChatWireEvent>, options: EventStreamOptions = {}): Response {
  const iterator = events[Symbol.asyncIterator]();
  let heartbeat: ReturnType<typeof setInterval> | undefined;
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    clearInterval(heartbeat);
    options.onClose?.();
  };
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      heartbeat = setInterval(() => {
        try {
          controller.enqueue(encoder.encode(": ping\n\n"));
        } catch {
          clearInterval(heartbeat);
        }
      }, options.heartbeat ?? 15_000);
    },
    async pull(controller) {
      try {
        const next = await iterator.next();
        if (next.done === true) {
          close();
          controller.close();
          return;
        }
        controller.enqueue(encoder.encode(`data: ${JSON.stringify(next.value)}\n\n`));
      } catch (error) {
        close();
        controller.error(error);
      }
    },
    async cancel() {
      close();
      await iterator.return?.();
    },
  });
  return new Response(body, {
    status: 200,
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache, no-store, no-transform",
      "x-accel-buffering": "no",
      "x-content-type-options": "nosniff",
      ...options.headers,
    },
  });
}
