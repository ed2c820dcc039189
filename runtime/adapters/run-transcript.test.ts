import { describe, expect, it } from "vitest";
import type { AgentMessage } from "../session/agent-message.js";
import type { AgentStreamPart } from "../session/agent-stream-part.js";
import { sessionReducer } from "../session/session-reducer.js";
import { RunTranscript } from "./run-transcript.js";

function mulberry32(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const user: AgentMessage = { id: "u1", role: "user", parts: [{ type: "text", text: "hi" }] };
/** What the transcript did before it held text back: every part through the reducer at once. */
const applyAll = (messages: AgentMessage[], part: AgentStreamPart) =>
  sessionReducer({ messages, status: "streaming", runId: "" }, { type: "part", runId: "", part }).messages;

describe("RunTranscript", () => {
  it("reads what applying every part at once gave, however deltas, calls and reads interleave", () => {
    for (let seed = 1; seed <= 200; seed++) {
      const random = mulberry32(seed);
      const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
      const transcript = new RunTranscript({ messages: [user] });
      let expected = [user];
      let messageId = "m1";
      for (let step = 0; step < 120; step++) {
        const roll = random();
        if (roll < 0.15) {
          expect(transcript.messages, `seed ${seed}, step ${step}`).toStrictEqual(expected);
          continue;
        }
        if (random() < 0.15) messageId = pick(["m1", "m2", "gone"]);
        const id = pick(["c1", "c2"]);
        const part: AgentStreamPart =
          roll < 0.6
            ? { type: "text-delta", messageId, delta: pick(["", "a", "bc", "\n"]) }
            : roll < 0.68
              ? { type: "message-start", messageId }
              : roll < 0.76
                ? { type: "tool-call", messageId, id, name: "lookup", input: {} }
                : roll < 0.82
                  ? { type: "tool-result", id, output: { content: [{ type: "text", text: "ok" }] } }
                  : roll < 0.86
                    ? { type: "tool-error", id, error: "Error [cancelled]: Stopped." }
                    : roll < 0.92
                      ? { type: "reasoning", messageId, text: "hm" }
                      : roll < 0.96
                        ? { type: "step-finish", step: 1 }
                        : { type: "finish", reason: pick(["stop", "aborted"] as const) };
        expect(transcript.record(part)).toBe(part);
        expected = applyAll(expected, part);
      }
      expect(transcript.messages).toStrictEqual(expected);
    }
  });

  it("holds a part's text as it was yielded, even if the caller reuses the object", () => {
    const transcript = new RunTranscript({ messages: [] });
    transcript.record({ type: "message-start", messageId: "m1" });
    const part = { type: "text-delta" as const, messageId: "m1", delta: "one " };
    transcript.record(part);
    part.delta = "two";
    transcript.record(part);
    expect(transcript.messages.at(-1)!.parts).toEqual([{ type: "text", text: "one two" }]);
  });

  it("run by a session, records nothing and reads the session's conversation", () => {
    const conversation = [user];
    const transcript = new RunTranscript({ messages: [], conversation: () => conversation });
    transcript.record({ type: "message-start", messageId: "m1" });
    transcript.record({ type: "text-delta", messageId: "m1", delta: "ignored" });
    expect(transcript.messages).toBe(conversation);
  });
});
