/**
 * What a Qwen-format completion contains, in order, as it streams:
 * `<think>…</think>` is reasoning, `<tool_call>{json}</tool_call>` a tool
 * call, everything else text.
 */
export type ModelOutputEvent =
  | { type: "text"; delta: string }
  | { type: "reasoning"; text: string }
  | { type: "tool-call"; name: string; input: Record<string, unknown> }
  /** A `<tool_call>` whose body is not `{"name": string, "arguments": object}`: never run. */
  | { type: "tool-call-invalid"; name: string; text: string; error: string };

const THINK_OPEN = "<think>";
const THINK_CLOSE = "</think>";
const CALL_OPEN = "<tool_call>";
const CALL_CLOSE = "</tool_call>";

type Mode = "text" | "think" | "call";

/** How many characters at the end of `buffer` could start one of `tags`. */
function heldBack(buffer: string, tags: readonly string[]): number {
  for (let length = Math.min(buffer.length, Math.max(...tags.map((tag) => tag.length)) - 1); length > 0; length--) {
    const tail = buffer.slice(-length);
    if (tags.some((tag) => tag.startsWith(tail))) return length;
  }
  return 0;
}

/** Reads one tool call's body. Qwen writes `{"name": …, "arguments": {…}}`. */
export function parseToolCallBody(body: string): ModelOutputEvent {
  const text = body.trim();
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const name = /"name"\s*:\s*"([^"]*)"/.exec(text)?.[1] ?? "";
    return { type: "tool-call-invalid", name, text, error: `the call is not valid JSON (${(error as Error).message})` };
  }
  const call = value as { name?: unknown; arguments?: unknown };
  if (typeof call !== "object" || call === null || typeof call.name !== "string" || call.name === "") {
    return { type: "tool-call-invalid", name: "", text, error: 'the call needs a "name" string' };
  }
  let input = call.arguments ?? {};
  if (typeof input === "string") {
    try {
      input = JSON.parse(input);
    } catch {
      return { type: "tool-call-invalid", name: call.name, text, error: '"arguments" is a string that is not JSON' };
    }
  }
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    return { type: "tool-call-invalid", name: call.name, text, error: '"arguments" must be a JSON object' };
  }
  return { type: "tool-call", name: call.name, input: input as Record<string, unknown> };
}

/**
 * An incremental parser over streamed model text. `push(chunk)` returns the
 * events the chunk completes; a tag split across chunks is held back until it
 * is whole, and text right after a closing tag loses its leading whitespace
 * (Qwen puts blank lines there). `end()` flushes: an unclosed `<think>` is
 * reasoning, an unclosed `<tool_call>` an invalid call.
 */
export class QwenOutputParser {
  #mode: Mode = "text";
  #buffer = "";
  #trimStart = false;
  /** Whether the current run of text (since the start or the last block) has shown anything but whitespace. */
  #textShown = false;

  push(chunk: string): ModelOutputEvent[] {
    this.#buffer += chunk;
    const events: ModelOutputEvent[] = [];
    for (;;) {
      if (this.#mode === "text") {
        if (this.#trimStart) {
          this.#buffer = this.#buffer.trimStart();
          if (this.#buffer === "") break;
          this.#trimStart = false;
        }
        const think = this.#buffer.indexOf(THINK_OPEN);
        const call = this.#buffer.indexOf(CALL_OPEN);
        const next = [think, call].filter((index) => index !== -1).sort((a, b) => a - b)[0];
        if (next === undefined) {
          const keep = heldBack(this.#buffer, [THINK_OPEN, CALL_OPEN]);
          const delta = this.#buffer.slice(0, this.#buffer.length - keep);
          // Whitespace alone before a block is dropped (below), so it waits until text or a tag decides:
          // sent now, it would make the result depend on where the chunks split.
          if (!this.#textShown && !delta.trim()) break;
          if (delta) events.push({ type: "text", delta });
          this.#textShown = true;
          this.#buffer = this.#buffer.slice(delta.length);
          break;
        }
        const before = this.#buffer.slice(0, next);
        if (before && (this.#textShown || before.trim())) events.push({ type: "text", delta: before });
        this.#textShown = false;
        this.#mode = next === think ? "think" : "call";
        this.#buffer = this.#buffer.slice(next + (next === think ? THINK_OPEN.length : CALL_OPEN.length));
        continue;
      }
      const close = this.#mode === "think" ? THINK_CLOSE : CALL_CLOSE;
      const end = this.#buffer.indexOf(close);
      if (end === -1) break;
      events.push(finishBlock(this.#mode, this.#buffer.slice(0, end)));
      this.#buffer = this.#buffer.slice(end + close.length);
      this.#mode = "text";
      this.#trimStart = true;
    }
    return events.filter((event) => event.type !== "reasoning" || event.text !== "");
  }

  end(): ModelOutputEvent[] {
    const rest = this.#buffer;
    this.#buffer = "";
    const mode = this.#mode;
    this.#mode = "text";
    this.#textShown = false;
    if (mode === "text") return rest && !(this.#trimStart && !rest.trim()) ? [{ type: "text", delta: rest }] : [];
    const event = finishBlock(mode, rest);
    return event.type === "reasoning" && event.text === "" ? [] : [event];
  }
}

function finishBlock(mode: Mode, body: string): ModelOutputEvent {
  return mode === "think" ? { type: "reasoning", text: body.trim() } : parseToolCallBody(body);
}
