import type { ChatWireEvent } from "../chat-wire.js";

/** The wire events in an event-stream body (comment lines skipped). */
export function parseEvents(body: string): ChatWireEvent[] {
  return body
    .split("\n\n")
    .map((block) => block.split("\n").filter((line) => line.startsWith("data: ")).map((line) => line.slice(6)).join(""))
    .filter((data) => data !== "")
    .map((data) => JSON.parse(data) as ChatWireEvent);
}
