import type { CallBodyReader } from "./call-body-reader.js";
import type { ModelOutputEvent } from "./model-output-event.js";
import { couldBecome, partialTagLength } from "./partial-tag.js";
import { TagSafeText } from "./tag-safe-text.js";

const THINK_OPEN = "<think>";
const THINK_CLOSE = "</think>";
const CALL_OPEN = "<tool_call>";
const CALL_CLOSE = "</tool_call>";
const TEXT_TAGS = [THINK_OPEN, CALL_OPEN, THINK_CLOSE, CALL_CLOSE];
const THINK_TAGS = [THINK_CLOSE, CALL_OPEN];
const SPACE = /\s/;
const VISIBLE = /\S/;

/** What differs between the Qwen formats around their calls. */
export interface QwenStreamOptions {
  /** A reader for one call's body (the text after `<tool_call>`). */
  createCallReader: () => CallBodyReader;
  /**
   * What a call's body starts with (after whitespace): `{` (Hermes JSON) or
   * `<function` (Qwen3.5). Inside reasoning a `<tool_call>` followed by
   * anything else is a mention, and stays reasoning.
   */
  callStart: string;
  /** The prompt opened `<think>` (Qwen3.5 with thinking on): the output starts as reasoning. */
  thinking?: boolean;
  /** Whitespace at the end of text is held until text follows, and dropped before a call (Qwen3.5). */
  trimBeforeCall?: boolean;
}

type Mode = "start" | "text" | "think" | "think-call" | "call";

/**
 * Splits a Qwen model's streamed output into text, reasoning and tool calls,
 * reading each character a bounded number of times whatever the chunking (it
 * keeps its place: only a possible tag's start is held from one chunk to the
 * next), so any split of the same output gives the same events.
 *
 * - `<think>…</think>` is reasoning, emitted whole, trimmed; an unclosed one
 *   is reasoning at the end.
 * - `<tool_call>` opens a call, read by the format's {@link CallBodyReader},
 *   which alone says where it ends. A call written inside reasoning (a
 *   `<tool_call>` followed by the format's call start) is run like any other,
 *   and the reasoning goes on after it until `</think>`.
 * - A `</think>` or `</tool_call>` outside its block is markup, never text:
 *   it is dropped, and the text on its two sides never joins into a tag.
 * - Whitespace alone before a block is not text, nor is whitespace right
 *   after one.
 */
export class QwenStreamReader {
  readonly #options: QwenStreamOptions;
  #mode: Mode;
  /** The end of the last chunk that may start a tag (text and reasoning), or the start of the output. */
  #carry = "";
  #trimStart = false;
  /** Whether the current run of text has shown anything but whitespace. */
  #textShown = false;
  /** Whitespace read but not yet shown (it may turn out to precede a block). */
  #heldSpace = "";
  #reasoning: string[] = [];
  /** After a `<tool_call>` inside reasoning: the whitespace and start read so far. */
  #lookSpace = "";
  #lookStart = "";
  #call?: CallBodyReader;
  #callInThink = false;
  /** Where text is pushed: no tag forms where dropped markup joins two pieces. */
  readonly #shown = new TagSafeText(TEXT_TAGS);

  constructor(options: QwenStreamOptions) {
    this.#options = options;
    this.#mode = options.thinking ? "start" : "text";
  }

  push(chunk: string): ModelOutputEvent[] {
    return this.#read(chunk, false);
  }

  end(): ModelOutputEvent[] {
    return this.#read("", true);
  }

  #read(chunk: string, final: boolean): ModelOutputEvent[] {
    const events: ModelOutputEvent[] = [];
    let input: string | undefined = this.#carry + chunk;
    this.#carry = "";
    while (input !== undefined) {
      switch (this.#mode) {
        case "start":
          input = this.#start(input, final);
          break;
        case "text":
          input = this.#text(input, events, final);
          break;
        case "think":
          input = this.#think(input, events, final);
          break;
        case "think-call":
          input = this.#thinkCall(input, events, final);
          break;
        case "call":
          input = this.#inCall(input, events, final);
          break;
      }
    }
    if (final) this.#shown.end(events);
    return events;
  }

  /** Thinking on: whitespace, then maybe a `<think>` the model writes itself (old templates), dropped. */
  #start(input: string, final: boolean): string | undefined {
    let index = 0;
    while (index < input.length && SPACE.test(input[index]!)) index++;
    if (index === input.length && !final) {
      this.#lookSpace += input;
      return undefined;
    }
    if (!final && couldBecome(input, index, THINK_OPEN)) {
      this.#lookSpace += input.slice(0, index);
      this.#carry = input.slice(index);
      return undefined;
    }
    this.#mode = "think";
    const space = this.#lookSpace;
    this.#lookSpace = "";
    return input.startsWith(THINK_OPEN, index) ? input.slice(index + THINK_OPEN.length) : space + input;
  }

  #text(input: string, events: ModelOutputEvent[], final: boolean): string | undefined {
    let index = 0;
    for (;;) {
      const [at, tag] = earliest(input, index, TEXT_TAGS);
      if (tag === undefined) {
        const keep = final ? 0 : partialTagLength(input.slice(Math.max(index, input.length - CALL_CLOSE.length)), TEXT_TAGS);
        this.#showText(input.slice(index, input.length - keep), events);
        this.#carry = input.slice(input.length - keep);
        if (final && this.#heldSpace) {
          this.#shown.push(this.#heldSpace, events);
          this.#heldSpace = "";
        }
        return undefined;
      }
      this.#showText(input.slice(index, at), events);
      index = at + tag.length;
      if (tag === THINK_OPEN || tag === CALL_OPEN) {
        this.#endTextRun(events, tag === CALL_OPEN);
        if (tag === THINK_OPEN) this.#mode = "think";
        else this.#openCall(false);
        return input.slice(index);
      }
      // A closer with nothing open is markup: dropped (and, before any text, so is the whitespace after it).
      if (!this.#textShown) this.#trimStart = true;
    }
  }

  #showText(text: string, events: ModelOutputEvent[]): void {
    if (!text) return;
    if (this.#trimStart) {
      text = text.trimStart();
      if (!text) return;
      this.#trimStart = false;
    }
    const trimBeforeCall = this.#options.trimBeforeCall === true;
    if (!VISIBLE.test(text) && (!this.#textShown || trimBeforeCall)) {
      this.#heldSpace += text;
      return;
    }
    if (trimBeforeCall) {
      const body = text.trimEnd();
      this.#shown.push(this.#heldSpace + body, events);
      this.#heldSpace = text.slice(body.length);
    } else {
      this.#shown.push(this.#heldSpace + text, events);
      this.#heldSpace = "";
    }
    this.#textShown = true;
  }

  /** A block opens: whitespace held before it is text only after text, and never before a Qwen3.5 call. */
  #endTextRun(events: ModelOutputEvent[], beforeCall: boolean): void {
    const held = this.#heldSpace;
    this.#heldSpace = "";
    if (held && this.#textShown && !(beforeCall && this.#options.trimBeforeCall)) this.#shown.push(held, events);
    this.#textShown = false;
    this.#trimStart = false;
  }

  #think(input: string, events: ModelOutputEvent[], final: boolean): string | undefined {
    const [at, tag] = earliest(input, 0, THINK_TAGS);
    if (tag === THINK_CLOSE) {
      this.#reasoning.push(input.slice(0, at));
      this.#emitReasoning(events);
      this.#mode = "text";
      this.#trimStart = true;
      this.#textShown = false;
      return input.slice(at + tag.length);
    }
    if (tag === CALL_OPEN) {
      this.#reasoning.push(input.slice(0, at + tag.length));
      this.#mode = "think-call";
      return input.slice(at + tag.length);
    }
    const keep = final ? 0 : partialTagLength(input.slice(Math.max(0, input.length - CALL_CLOSE.length)), THINK_TAGS);
    this.#reasoning.push(input.slice(0, input.length - keep));
    this.#carry = input.slice(input.length - keep);
    if (final) this.#emitReasoning(events);
    return undefined;
  }

  /** After a `<tool_call>` inside reasoning: a call when the format's call start follows (after whitespace), else a mention. */
  #thinkCall(input: string, events: ModelOutputEvent[], final: boolean): string | undefined {
    const start = this.#options.callStart;
    let index = 0;
    if (!this.#lookStart) {
      while (index < input.length && SPACE.test(input[index]!)) index++;
      this.#lookSpace += input.slice(0, index);
    }
    const wanted = start.length - this.#lookStart.length;
    const seen = this.#lookStart + input.slice(index, index + wanted);
    if (!final && seen.length < start.length && start.startsWith(seen)) {
      this.#lookStart = seen;
      return undefined;
    }
    const read = this.#lookSpace + this.#lookStart + input.slice(index);
    this.#lookSpace = "";
    this.#lookStart = "";
    if (seen === start) {
      // The `<tool_call>` pushed as reasoning opens a call instead.
      const last = this.#reasoning.pop()!;
      this.#reasoning.push(last.slice(0, -CALL_OPEN.length));
      this.#emitReasoning(events);
      this.#openCall(true);
      return read;
    }
    this.#mode = "think";
    return read;
  }

  #emitReasoning(events: ModelOutputEvent[]): void {
    const text = this.#reasoning.join("").trim();
    this.#reasoning = [];
    if (!text) return;
    this.#shown.end(events);
    events.push({ type: "reasoning", text });
  }

  #openCall(inThink: boolean): void {
    this.#call = this.#options.createCallReader();
    this.#callInThink = inThink;
    this.#mode = "call";
  }

  #inCall(input: string, events: ModelOutputEvent[], final: boolean): string | undefined {
    const call = this.#call!;
    const done = input || !final ? call.push(input) : undefined;
    if (!done) {
      if (!final) return undefined;
      this.#shown.end(events);
      events.push(call.end());
      this.#call = undefined;
      this.#mode = "text";
      return undefined;
    }
    this.#shown.end(events);
    events.push(done.event);
    this.#call = undefined;
    if (this.#callInThink) this.#mode = "think";
    else {
      this.#mode = "text";
      this.#trimStart = true;
      this.#textShown = false;
    }
    return done.rest;
  }
}

/** The first of `tags` in `text` from `from`: its index and the tag (none: `[-1, undefined]`). */
function earliest(text: string, from: number, tags: readonly string[]): [number, string | undefined] {
  let at = -1;
  let found: string | undefined;
  for (const tag of tags) {
    const index = text.indexOf(tag, from);
    if (index !== -1 && (at === -1 || index < at)) {
      at = index;
      found = tag;
    }
  }
  return [at, found];
}
