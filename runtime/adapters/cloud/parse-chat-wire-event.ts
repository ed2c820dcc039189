import type { ChatWireEvent } from "../../server/chat-wire.js";

type Kind = "string" | "any" | "object?";

const SHAPES: Record<ChatWireEvent["type"], Record<string, Kind>> = {
  "text-delta": { delta: "string" },
  reasoning: { text: "string", providerMetadata: "object?" },
  "tool-call": { id: "string", name: "string", input: "any", providerMetadata: "object?" },
  "tool-call-invalid": { id: "string", name: "string", inputText: "string", error: "string" },
  finish: { reason: "string" },
  error: { error: "string" },
};

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Reads one SSE `data` payload of the chat wire. Pure. Returns the event,
 * `undefined` for an event type this version does not know (a newer server
 * may add some: they are skipped), or throws a `TypeError` for data that is
 * not JSON or a known event with a wrong member; the adapter reports that as
 * a broken stream.
 */
export function parseChatWireEvent(data: string): ChatWireEvent | undefined {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    throw new TypeError(`the event data is not JSON: ${data.slice(0, 80)}`);
  }
  if (!isRecord(value) || typeof value.type !== "string") throw new TypeError("an event needs a string type.");
  if (!Object.hasOwn(SHAPES, value.type)) return undefined;
  const shape = SHAPES[value.type as ChatWireEvent["type"]];
  for (const [field, kind] of Object.entries(shape)) {
    const member = value[field];
    const ok =
      kind === "any" ? field in value : kind === "object?" ? member === undefined || isRecord(member) : typeof member === kind;
    if (!ok) throw new TypeError(`a "${value.type}" event has a malformed ${field}.`);
  }
  return value as ChatWireEvent;
}
