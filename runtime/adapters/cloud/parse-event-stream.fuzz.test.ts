/**
 * Fuzzing the cloud adapter's SSE reader: `createEventStreamParser` on bytes
 * and on text, and `readWireEvents` over a real ReadableStream, with hostile
 * but realistic streams (wire events, garbage, comments, every newline, a BOM,
 * invalid UTF-8, huge and deep data) cut anywhere, inside multi-byte UTF-8
 * characters and between a CR and its LF too. FUZZ_RUNS cases each
 * (10,000 here, 100,000 in `npm run fuzz`).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { WebAgentsError } from "../../core/web-agents-error.js";
import type { ChatWireEvent } from "../../server/chat-wire.js";
import { chunkings, fuzzAsyncProperty, fuzzProperty, fuzzTimeout, splitBytes, splitText } from "../../test-support/fuzz-property.js";
import { deepNesting, hostileWord, hugeToken, newline } from "../../test-support/hostile-text.js";
import { createEventStreamParser, type ServerSentEvent } from "./parse-event-stream.js";
import { readWireEvents } from "./read-wire-events.js";

const encoder = new TextEncoder();

/** An independent, whole-text reading of the same format: split on every line ending, then the same field rules. */
function referenceEvents(text: string): ServerSentEvent[] {
  const lines = text.split(/\r\n|\r|\n/);
  lines.pop(); // the last line has no ending: dropped at the end of the stream
  const events: ServerSentEvent[] = [];
  let name = "";
  let data: string[] | undefined;
  for (const line of lines) {
    if (line === "") {
      if (data) events.push({ event: name || "message", data: data.join("\n") });
      name = "";
      data = undefined;
      continue;
    }
    if (line.startsWith(":")) continue;
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? "" : line.slice(colon + 1).replace(/^ /, "");
    if (field === "data") (data ??= []).push(value);
    else if (field === "event") name = value;
  }
  return events;
}

function parseByteChunks(chunks: readonly Uint8Array[]): ServerSentEvent[] {
  const parser = createEventStreamParser();
  return [...chunks.flatMap((chunk) => parser.push(chunk)), ...parser.end()];
}

function parseTextChunks(chunks: readonly string[]): ServerSentEvent[] {
  const parser = createEventStreamParser();
  return [...chunks.flatMap((chunk) => parser.push(chunk)), ...parser.end()];
}

const wireEvent: fc.Arbitrary<ChatWireEvent | Record<string, unknown>> = fc.oneof(
  hostileWord.map((delta) => ({ type: "text-delta", delta })),
  hostileWord.map((text) => ({ type: "reasoning", text })),
  fc.record({ type: fc.constant("tool-call"), id: hostileWord, name: hostileWord, input: fc.jsonValue({ maxDepth: 4 }) }),
  fc.record({ type: fc.constant("tool-call-invalid"), id: hostileWord, name: hostileWord, inputText: hostileWord, error: hostileWord }),
  fc.constantFrom("stop", "tool-calls", "length").map((reason) => ({ type: "finish", reason })),
  hostileWord.map((error) => ({ type: "error", error })),
  // Kinds a newer server may send, and known kinds with a wrong member.
  fc.record({ type: fc.constantFrom("usage", "step-start", "x"), value: fc.jsonValue({ maxDepth: 2 }) }),
  fc.record({ type: fc.constant("text-delta"), delta: fc.oneof(fc.integer(), fc.constant(null)) }),
);

/** A data payload: usually a wire event's JSON (sometimes split over data lines), else garbage, huge or deep. */
const dataLines = fc.oneof(
  { weight: 8, arbitrary: wireEvent.map((event) => [JSON.stringify(event)]) },
  { weight: 1, arbitrary: wireEvent.map((event) => JSON.stringify(event, null, 1).split("\n")) },
  { weight: 2, arbitrary: fc.array(hostileWord, { minLength: 1, maxLength: 3 }) },
  { weight: 1, arbitrary: hugeToken.map((token) => [JSON.stringify({ type: "text-delta", delta: token })]) },
  { weight: 1, arbitrary: deepNesting.map((nested) => [nested]) },
);

/** One block of lines: an event, or a comment / id / retry / unknown field / field without a colon. */
const block = fc.oneof(
  { weight: 10, arbitrary: fc.tuple(fc.option(fc.constantFrom("message", "step", "", "ping"), { nil: undefined }), dataLines).map(([name, lines]) => [
    ...(name === undefined ? [] : [`event: ${name}`]),
    ...lines.map((line, index) => (index % 2 === 0 ? `data: ${line}` : `data:${line}`)),
  ]) },
  { weight: 2, arbitrary: hostileWord.map((text) => [`: ${text}`]) },
  { weight: 1, arbitrary: fc.constantFrom(["id: 7"], ["retry: 1000"], ["data"], ["event"], ["dat: x"], [":"], ["data:  two spaces"]) },
  { weight: 1, arbitrary: hostileWord.map((text) => [text]) },
);

/** A stream as bytes: blocks with any line endings, maybe a BOM first, maybe invalid UTF-8, maybe cut short. */
const streamBytes = fc
  .tuple(
    fc.boolean(),
    fc.array(fc.tuple(block, fc.array(newline, { minLength: 4, maxLength: 4 }), newline), { maxLength: 14 }),
    fc.option(fc.uint8Array({ minLength: 1, maxLength: 6 }), { nil: undefined, freq: 6 }),
    fc.nat(),
    fc.boolean(),
  )
  .map(([bom, blocks, garbage, garbageAt, cutShort]) => {
    let text = bom ? "\ufeff" : "";
    for (const [lines, endings, blank] of blocks) {
      lines.forEach((line, index) => {
        text += line + endings[index % endings.length]!;
      });
      text += blank;
    }
    let bytes = encoder.encode(text);
    if (garbage !== undefined) {
      const at = garbageAt % (bytes.length + 1);
      bytes = new Uint8Array([...bytes.subarray(0, at), ...garbage, ...bytes.subarray(at)]);
    }
    if (cutShort && bytes.length > 0) bytes = bytes.subarray(0, garbageAt % bytes.length);
    return bytes;
  });

type Outcome = { events: ChatWireEvent[]; error?: string };

async function readAll(chunks: readonly Uint8Array[]): Promise<Outcome> {
  let index = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (index < chunks.length) controller.enqueue(chunks[index++]!);
      else controller.close();
    },
  });
  const events: ChatWireEvent[] = [];
  try {
    for await (const event of readWireEvents(body, new AbortController().signal)) events.push(event);
  } catch (error) {
    // The only documented failure: a WebAgentsError "network" (cut off, or unreadable data).
    if (!(error instanceof WebAgentsError) || error.code !== "network") throw error;
    return { events, error: `${error.code}: ${error.message}` };
  }
  return { events };
}

describe("fuzz: the SSE reader", () => {
  it(
    "createEventStreamParser: no throw, no case over 100 ms, the same events for any cut of the bytes or the text, equal to a whole-text reading",
    () => {
      fuzzProperty("sse-parser", fc.tuple(streamBytes, chunkings), ([bytes, cuts]) => {
        const text = new TextDecoder().decode(bytes);
        const expected = referenceEvents(text);
        expect(parseByteChunks([bytes])).toEqual(expected);
        for (const offsets of cuts) {
          expect(parseByteChunks(splitBytes(bytes, offsets))).toEqual(expected);
          // Text chunks (the parser takes strings too): the BOM is the decoder's to strip, so compare without one.
          const plain = text.startsWith("\ufeff") ? text.slice(1) : text;
          expect(parseTextChunks(splitText(plain, offsets))).toEqual(expected);
        }
        // One byte at a time, for short streams.
        if (bytes.length <= 600) expect(parseByteChunks(splitBytes(bytes, [...bytes.keys()]))).toEqual(expected);
      });
    },
    fuzzTimeout(),
  );

  it(
    "readWireEvents: only typed network errors, the same events and ending for any cut of the body",
    async () => {
      await fuzzAsyncProperty("sse-wire-events", fc.tuple(streamBytes, chunkings), async ([bytes, cuts]) => {
        const whole = await readAll([bytes]);
        for (const offsets of cuts) expect(await readAll(splitBytes(bytes, offsets))).toEqual(whole);
      });
    },
    fuzzTimeout(),
  );
});
