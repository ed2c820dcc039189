import { WebAgentsError } from "../../core/web-agents-error.js";
import type { ChatWireEvent } from "../../server/chat-wire.js";
import { abortable } from "../abortable.js";
import { CLOUD_MESSAGES } from "./cloud-messages.js";
import { parseChatWireEvent } from "./parse-chat-wire-event.js";
import { createEventStreamParser } from "./parse-event-stream.js";

/**
 * Reads one step's `text/event-stream` body as chat wire events, ending with
 * the first `finish` or `error` event (the rest of the body is cancelled).
 * Throws a {@link WebAgentsError} with code `"network"` when the body breaks or
 * ends before that last event (`cutOff`) or carries data that is not a wire
 * event (`unreadable`), and an `AbortError` as soon as `signal` aborts. The
 * body is always released: cancelled unless it was read to the end.
 */
export async function* readWireEvents(body: ReadableStream<Uint8Array> | null, signal: AbortSignal): AsyncGenerator<ChatWireEvent> {
  if (!body) throw new WebAgentsError("network", CLOUD_MESSAGES.cutOff);
  const reader = body.getReader();
  const parser = createEventStreamParser();
  let drained = false;
  try {
    for (;;) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await abortable(reader.read(), signal);
      } catch (error) {
        if (signal.aborted) throw error;
        throw new WebAgentsError("network", CLOUD_MESSAGES.cutOff, { cause: error });
      }
      if (chunk.done) drained = true;
      const messages = chunk.done ? parser.end() : parser.push(chunk.value);
      for (const message of messages) {
        let event: ChatWireEvent | undefined;
        try {
          event = parseChatWireEvent(message.data);
        } catch (error) {
          throw new WebAgentsError("network", CLOUD_MESSAGES.unreadable, { cause: error });
        }
        if (!event) continue;
        yield event;
        if (event.type === "finish" || event.type === "error") return;
      }
      if (chunk.done) throw new WebAgentsError("network", CLOUD_MESSAGES.cutOff);
    }
  } finally {
    if (!drained) reader.cancel().catch(() => {});
    try {
      reader.releaseLock();
    } catch {
      // Older stream implementations throw while a read is pending; the cancel above settles it.
    }
  }
}
