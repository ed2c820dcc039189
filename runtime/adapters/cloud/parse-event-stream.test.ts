import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createEventStreamParser, type ServerSentEvent } from "./parse-event-stream.js";

const encoder = new TextEncoder();

function parseChunks(chunks: readonly Uint8Array[]): ServerSentEvent[] {
  const parser = createEventStreamParser();
  return [...chunks.flatMap((chunk) => parser.push(chunk)), ...parser.end()];
}

/** Cuts `bytes` at the given offsets (any order, repeats allowed). */
function split(bytes: Uint8Array, offsets: readonly number[]): Uint8Array[] {
  const cuts = [...new Set(offsets.map((offset) => offset % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks: Uint8Array[] = [];
  let start = 0;
  for (const cut of [...cuts, bytes.length]) {
    chunks.push(bytes.slice(start, cut));
    start = cut;
  }
  return chunks;
}

// Text with multi-byte characters (2, 3 and 4 bytes in UTF-8) and no line breaks.
const lineText = fc
  .array(fc.constantFrom("a", "z", " ", ":", "{", "\"", "é", "€", "日", "😀", "🧪", "\u00a0"), { maxLength: 12 })
  .map((characters) => characters.join(""));
const newline = fc.constantFrom("\n", "\r\n", "\r");

interface Scripted {
  text: string;
  expected: ServerSentEvent[];
}

// A valid stream: events of one or more data lines, some named, with comments, every line ending in any of the three newlines.
const stream: fc.Arbitrary<Scripted> = fc
  .array(
    fc.record({
      name: fc.option(fc.constantFrom("message", "step", "ping"), { nil: undefined }),
      lines: fc.array(lineText, { minLength: 1, maxLength: 3 }),
      comment: fc.boolean(),
      endings: fc.array(newline, { minLength: 6, maxLength: 6 }),
    }),
    { maxLength: 6 },
  )
  .map((events) => {
    let text = "";
    const expected: ServerSentEvent[] = [];
    for (const { name, lines, comment, endings } of events) {
      let ending = 0;
      // A "\n" right after a lone "\r" would read as one "\r\n": write "\r\n" there instead.
      const end = () => {
        const chosen = endings[ending++ % endings.length]!;
        return chosen === "\n" && text.endsWith("\r") ? "\r\n" : chosen;
      };
      const writeLine = (content: string) => {
        text += content;
        text += end();
      };
      if (comment) writeLine(": keep-alive");
      if (name) writeLine(`event: ${name}`);
      for (const line of lines) writeLine(`data: ${line}`);
      writeLine("");
      expected.push({ event: name ?? "message", data: lines.join("\n") });
    }
    return { text, expected };
  });

describe("createEventStreamParser", () => {
  it("reads data lines, names, comments and all three newlines", () => {
    const parser = createEventStreamParser();
    const events = parser.push(": hi\r\nevent: step\r\ndata: {\"a\":1}\r\ndata:second\r\rdata: x\n\n");
    expect(events).toEqual([
      { event: "step", data: "{\"a\":1}\nsecond" },
      { event: "message", data: "x" },
    ]);
    expect(parser.end()).toEqual([]);
  });

  it("drops an event the stream ended before its blank line", () => {
    const parser = createEventStreamParser();
    expect(parser.push("data: whole\n\ndata: half")).toEqual([{ event: "message", data: "whole" }]);
    expect(parser.end()).toEqual([]);
  });

  it("yields the same events for any split into chunks (property)", () => {
    fc.assert(
      fc.property(stream, fc.array(fc.nat(), { maxLength: 40 }), ({ text, expected }, offsets) => {
        const bytes = encoder.encode(text);
        expect(parseChunks([bytes])).toEqual(expected);
        expect(parseChunks(split(bytes, offsets))).toEqual(expected);
      }),
      { numRuns: 500 },
    );
  });

  it("yields the same events fed one byte at a time, with splits inside every multi-byte character and every \\r\\n", () => {
    const text = "data: é€日😀\r\n\r\ndata: 🧪\r\n\r\n";
    const bytes = encoder.encode(text);
    const oneByOne = split(bytes, Array.from({ length: bytes.length }, (_, index) => index));
    expect(parseChunks(oneByOne)).toEqual([
      { event: "message", data: "é€日😀" },
      { event: "message", data: "🧪" },
    ]);
  });
});
