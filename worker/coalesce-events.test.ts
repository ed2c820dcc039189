import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { coalesceEvents, COALESCE_MS } from "./coalesce-events.js";
import type { EventBatch } from "./protocol.js";
import type { EngineEvent } from "./protocol.js";

const text = (delta: string): EngineEvent => ({ type: "text-delta", delta });
const flat = (posts: EventBatch[]) => posts.flatMap((batch) => (Array.isArray(batch) ? batch : [batch]));

describe("coalesceEvents", () => {
  let clock = 0;
  let posts: EventBatch[];
  beforeEach(() => {
    vi.useFakeTimers();
    clock = 1000;
    posts = [];
  });
  afterEach(() => vi.useRealTimers());
  const coalescer = () => coalesceEvents((batch) => posts.push(batch), () => clock);
  const advance = (ms: number) => {
    clock += ms;
    vi.advanceTimersByTime(ms);
  };

  it("posts the first token at once, alone", () => {
    coalescer().push(text("Hello"));
    expect(posts).toEqual([text("Hello")]);
  });

  it("holds the tokens of one frame and posts them as one message at its end, adjacent text joined", () => {
    const events = coalescer();
    events.push(text("a"));
    advance(1);
    events.push(text("b"));
    advance(1);
    events.push(text("c"));
    events.push({ type: "reasoning", text: "r" });
    events.push(text("d"));
    expect(posts).toEqual([text("a")]);
    advance(COALESCE_MS - 3);
    expect(posts).toHaveLength(1);
    advance(1);
    expect(posts).toEqual([text("a"), [text("bc"), { type: "reasoning", text: "r" }, text("d")]]);
  });

  it("posts a token a frame or more after the last post at once (a slow model's tokens are never held)", () => {
    const events = coalescer();
    events.push(text("a"));
    advance(COALESCE_MS);
    events.push(text("b"));
    advance(40);
    events.push(text("c"));
    expect(posts).toEqual([text("a"), text("b"), text("c")]);
  });

  it("sends a tool call, the usage and the end at once, after what was held before them", () => {
    const events = coalescer();
    events.push(text("a"));
    events.push(text("b"));
    events.push({ type: "tool-call", name: "add_to_cart", input: { sku: "A" } });
    expect(posts).toEqual([text("a"), [text("b"), { type: "tool-call", name: "add_to_cart", input: { sku: "A" } }]]);
    events.push({ type: "finish", reason: "stop" });
    expect(posts.at(-1)).toEqual({ type: "finish", reason: "stop" });
    advance(COALESCE_MS * 2);
    expect(posts).toHaveLength(3);
  });

  it("keeps every event, in order, whatever the timing: the text joins back to the same string", () => {
    const events = coalescer();
    const sent: EngineEvent[] = [];
    let seed = 7;
    const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
    for (let index = 0; index < 2000; index++) {
      const event: EngineEvent = random() < 0.9 ? text(`t${index} `) : random() < 0.5 ? { type: "reasoning", text: `r${index}` } : { type: "tool-call", name: "n", input: index };
      sent.push(event);
      events.push(event);
      advance(Math.floor(random() * 6));
    }
    events.push({ type: "finish", reason: "stop" });
    const received = flat(posts);
    const joined = (list: EngineEvent[]) => list.map((event) => (event.type === "text-delta" ? event.delta : `|${JSON.stringify(event)}|`)).join("");
    expect(joined(received)).toBe(joined([...sent, { type: "finish", reason: "stop" }]));
    expect(received.at(-1)).toEqual({ type: "finish", reason: "stop" });
    // About one message a frame, not one a token.
    expect(posts.length).toBeLessThan(sent.length / 3);
  });

  it("flush() posts what is held now", () => {
    const events = coalescer();
    events.push(text("a"));
    events.push(text("b"));
    events.flush();
    expect(posts).toEqual([text("a"), text("b")]);
    advance(COALESCE_MS);
    expect(posts).toHaveLength(2);
  });
});
