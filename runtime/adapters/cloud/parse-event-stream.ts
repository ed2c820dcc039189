/** One server-sent event: its `event` field (`"message"` when absent) and its `data` lines joined by `\n`. */
export interface ServerSentEvent {
  event: string;
  data: string;
}

/** An incremental `text/event-stream` parser: feed it chunks as they arrive. */
export interface EventStreamParser {
  /** Parses one chunk of bytes (or text) and returns the events it completed. */
  push(chunk: Uint8Array | string): ServerSentEvent[];
  /**
   * The stream ended: returns the events the last bytes completed. An event
   * without its closing blank line is dropped, as the specification says, so
   * a stream cut mid-event never yields half an event.
   */
  end(): ServerSentEvent[];
}

/**
 * Creates a parser for the `text/event-stream` format
 * (https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation).
 * Pure: no I/O. The result does not depend on where the chunks split, even
 * inside a multi-byte UTF-8 character or between a `\r` and its `\n`. It keeps
 * `event` and `data` and ignores comments, `id` and `retry`: the chat wire
 * does not reconnect.
 */
export function createEventStreamParser(): EventStreamParser {
  const decoder = new TextDecoder("utf-8");
  let buffer = "";
  // A `\r` at the end of a chunk may be half of a `\r\n`: the next chunk's
  // first character decides, so it ends a line but a following `\n` is skipped.
  let skipLineFeed = false;
  let eventName = "";
  let data: string[] = [];
  let hasData = false;

  const processLine = (line: string, events: ServerSentEvent[]) => {
    if (line === "") {
      if (hasData) events.push({ event: eventName || "message", data: data.join("\n") });
      eventName = "";
      data = [];
      hasData = false;
      return;
    }
    if (line.startsWith(":")) return;
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") {
      data.push(value);
      hasData = true;
    } else if (field === "event") {
      eventName = value;
    }
  };

  const consume = (text: string): ServerSentEvent[] => {
    const events: ServerSentEvent[] = [];
    buffer += text;
    let start = 0;
    for (let index = 0; index < buffer.length; index++) {
      const character = buffer.charCodeAt(index);
      if (skipLineFeed) {
        skipLineFeed = false;
        if (character === 0x0a) {
          start = index + 1;
          continue;
        }
      }
      if (character === 0x0a || character === 0x0d) {
        processLine(buffer.slice(start, index), events);
        start = index + 1;
        if (character === 0x0d) skipLineFeed = true;
      }
    }
    buffer = buffer.slice(start);
    return events;
  };

  return {
    push(chunk) {
      return consume(typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true }));
    },
    end() {
      const events = consume(decoder.decode());
      buffer = "";
      eventName = "";
      data = [];
      hasData = false;
      return events;
    },
  };
}
