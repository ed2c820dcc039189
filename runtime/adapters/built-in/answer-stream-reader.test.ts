import { describe, expect, it } from "vitest";
import { seededRandom } from "../../../bench/constraint/random-json-schema.js";
import { createAnswerStreamReader } from "./answer-stream-reader.js";

/** Every delta the reader gives for `text` cut into `chunks`, in order. */
function read(chunks: readonly string[]): string[] {
  const reader = createAnswerStreamReader();
  return chunks.map((chunk) => reader.push(chunk));
}

/** `text` cut at random places (some pieces empty, some one character). */
function cut(text: string, random: () => number): string[] {
  const pieces: string[] = [];
  let at = 0;
  while (at < text.length) {
    const size = Math.floor(random() * 7);
    pieces.push(text.slice(at, at + size));
    at += size;
  }
  return pieces;
}

const isHigh = (code: number) => code >= 0xd800 && code <= 0xdbff;

describe("createAnswerStreamReader: the answer out of the constrained reply, as it streams", () => {
  it("gives the answer whole, however the reply is cut, with every JSON escape and no half character at a delta's end", () => {
    const answers = ["Done.", 'Say "hi" \\ now', "tab\there\nnew line\r\n", "🧦 socks × 2 — ünïcode", "\u0000\u001f control", "</answer>{\"calls\":[]}", "a".repeat(500)];
    const random = seededRandom(27);
    for (const answer of answers) {
      for (const layout of [JSON.stringify({ answer }), `{ "answer" :\n  ${JSON.stringify(answer)} }`, JSON.stringify({ answer }).replace(/[^\x20-\x7e]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`)]) {
        for (let round = 0; round < 30; round++) {
          const deltas = read(cut(layout, random));
          expect(deltas.join("")).toBe(answer);
          for (const delta of deltas) if (delta) expect(isHigh(delta.charCodeAt(delta.length - 1)), JSON.stringify(delta)).toBe(false);
        }
      }
    }
  });

  it("reads the answer wherever it stands among other keys, and nothing from calls, nested strings or keys that look alike", () => {
    expect(read(['{"note": {"answer": "no"}, "answer": "yes"}']).join("")).toBe("yes");
    expect(read(['{"calls": [{"tool": "go_to", "arguments": {"answer": "nope", "q": "a\\"b"}}]}']).join("")).toBe("");
    expect(read(['{"answers": "no", "n": 12, "t": true, "answer": "ok"}']).join("")).toBe("ok");
    expect(read(["garbage before ", '{"answer":"x"}', ' and after {"answer":"y"}']).join("")).toBe("x");
  });

  it("streams as it grows: text arrives with the chunk that carries it", () => {
    expect(read(['{"answer": "Hel', 'lo, ', 'world"}'])).toEqual(["Hel", "lo, ", "world"]);
    expect(read(['{"answer": "a\\', 'nb"}'])).toEqual(["a", "\nb"]);
    expect(read(['{"answer": "\\ud83e', '\\udde6!"}'])).toEqual(["", "🧦!"]);
  });
});
