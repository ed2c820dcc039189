import type { ModelOutputEvent } from "./qwen-output-parser.js";
import { convertParameterValue } from "./qwen35-parameter-value.js";

/** A tool as the parser needs it: its name and JSON Schema (parameter names and types). */
export interface Qwen35ParserTool {
  name: string;
  inputSchema: Record<string, unknown>;
}

/** Options for {@link Qwen35OutputParser}. */
export interface Qwen35ParserOptions {
  /** The offered tools: their schemas type the values and say which `<parameter=NAME>` is structural. */
  tools: readonly Qwen35ParserTool[];
  /**
   * Whether the prompt ended with an open `<think>` (thinking on): the output
   * then starts as reasoning, ended by `</think>` or by a `<tool_call>` that
   * opens a `<function=`. Default false (the Small models' default).
   */
  thinking?: boolean;
}

const THINK_OPEN = "<think>";
const THINK_CLOSE = "</think>";
const CALL_OPEN = "<tool_call>";
const CALL_CLOSE = "</tool_call>";
const FUNCTION_OPEN = "<function=";
const FUNCTION_CLOSE = "</function>";
const PARAMETER_OPEN = "<parameter=";
const PARAMETER_CLOSE = "</parameter>";
const NAME_REJECT = /[{}<>"'\s]/;

/** The walk of one call's block is undecided until more text arrives. */
const INCOMPLETE = Symbol("incomplete");

type Walked = typeof INCOMPLETE | { event: ModelOutputEvent; consumed: number };

/** How many characters at the end of `text` could start one of `tags`. */
function heldBack(text: string, tags: readonly string[]): number {
  for (let length = Math.min(text.length, Math.max(...tags.map((tag) => tag.length)) - 1); length > 0; length--) {
    const tail = text.slice(-length);
    if (tags.some((tag) => tag.startsWith(tail))) return length;
  }
  return 0;
}

const skipSpace = (text: string, from: number) => {
  let index = from;
  while (index < text.length && /\s/.test(text[index]!)) index++;
  return index;
};

/** `text` from `from` is a proper prefix of one of `tags` (more text could complete it). */
const couldBecome = (text: string, from: number, tags: readonly string[]) => {
  const rest = text.slice(from);
  return rest.length > 0 && tags.some((tag) => tag.length > rest.length && tag.startsWith(rest));
};

/**
 * An incremental parser for Qwen3.5's output, with vLLM's `qwen3_coder`
 * semantics: `<tool_call>\n<function=NAME>\n<parameter=KEY>\nVALUE\n</parameter>\n…</function>\n</tool_call>`,
 * values typed by the tool's schema (numbers, booleans, objects, arrays,
 * `None`/`null`), tag look-alikes inside a value kept as text (a
 * `</parameter>` ends a value only when a known `<parameter=`, `</function>`
 * or `</tool_call>` follows it; nested pairs are counted), several calls,
 * text before a call, and a `<tool_call>` opening a `<function=` inside an
 * unclosed `<think>` ending the reasoning. A malformed call is a
 * `tool-call-invalid` event: it never runs and is reported to the model.
 *
 * Chunking-invariant: any split of the same output gives the same events
 * (text deltas may be split differently; their concatenation is the same).
 * `push(chunk)` returns what the chunk completes; `end()` flushes.
 */
export class Qwen35OutputParser {
  readonly #schemas: Map<string, Record<string, Record<string, unknown>>>;
  #mode: "think" | "text" | "call";
  #buffer = "";
  #trimStart = false;
  #startOfOutput = true;

  constructor(options: Qwen35ParserOptions) {
    this.#schemas = new Map(
      options.tools.map((tool) => [tool.name, ((tool.inputSchema as { properties?: unknown }).properties ?? {}) as Record<string, Record<string, unknown>>]),
    );
    this.#mode = options.thinking ? "think" : "text";
  }

  push(chunk: string): ModelOutputEvent[] {
    this.#buffer += chunk;
    return this.#drain(false);
  }

  end(): ModelOutputEvent[] {
    const events = this.#drain(true);
    this.#buffer = "";
    return events;
  }

  #drain(final: boolean): ModelOutputEvent[] {
    const events: ModelOutputEvent[] = [];
    for (;;) {
      const progressed = this.#mode === "think" ? this.#think(events, final) : this.#mode === "text" ? this.#text(events, final) : this.#call(events, final);
      if (!progressed) return events;
    }
  }

  /** Reasoning, emitted whole when it ends. Returns whether it consumed anything. */
  #think(events: ModelOutputEvent[], final: boolean): boolean {
    // An old-style template lets the model write its own <think>: drop it.
    if (this.#startOfOutput) {
      const start = skipSpace(this.#buffer, 0);
      if (!final && (start === this.#buffer.length || couldBecome(this.#buffer, start, [THINK_OPEN]))) return false;
      if (this.#buffer.startsWith(THINK_OPEN, start)) this.#buffer = this.#buffer.slice(start + THINK_OPEN.length);
      this.#startOfOutput = false;
    }
    let from = 0;
    for (;;) {
      const close = this.#buffer.indexOf(THINK_CLOSE, from);
      const call = this.#buffer.indexOf(CALL_OPEN, from);
      if (close !== -1 && (call === -1 || close < call)) {
        this.#emitReasoning(events, this.#buffer.slice(0, close));
        this.#buffer = this.#buffer.slice(close + THINK_CLOSE.length);
        this.#mode = "text";
        this.#trimStart = true;
        return true;
      }
      if (call !== -1) {
        const after = skipSpace(this.#buffer, call + CALL_OPEN.length);
        if (this.#buffer.startsWith("<function", after)) {
          // Qwen3.5 often opens a call without closing its reasoning: the call ends it.
          this.#emitReasoning(events, this.#buffer.slice(0, call));
          this.#buffer = this.#buffer.slice(call + CALL_OPEN.length);
          this.#mode = "call";
          return true;
        }
        if (!final && (after === this.#buffer.length || couldBecome(this.#buffer, after, ["<function"]))) return false;
        from = call + CALL_OPEN.length; // A mention of <tool_call> in the reasoning, not a call.
        continue;
      }
      if (!final) return false;
      // Cut off while thinking: it was all reasoning.
      this.#emitReasoning(events, this.#buffer);
      this.#buffer = "";
      this.#mode = "text";
      return false;
    }
  }

  #emitReasoning(events: ModelOutputEvent[], text: string) {
    const trimmed = text.trim();
    if (trimmed) events.push({ type: "reasoning", text: trimmed });
  }

  /** Plain text, up to the next `<tool_call>` (or a `<think>` the model writes itself). */
  #text(events: ModelOutputEvent[], final: boolean): boolean {
    if (this.#trimStart) {
      this.#buffer = this.#buffer.trimStart();
      if (this.#buffer === "") return false;
      this.#trimStart = false;
    }
    this.#startOfOutput = false;
    const call = this.#buffer.indexOf(CALL_OPEN);
    const think = this.#buffer.indexOf(THINK_OPEN);
    const next = [call, think].filter((index) => index !== -1).sort((a, b) => a - b)[0];
    if (next !== undefined) {
      // trimEnd(), not replace(/\s+$/): that regex backtracks quadratically over a long run of spaces followed by text.
      const before = next === call ? this.#buffer.slice(0, next).trimEnd() : this.#buffer.slice(0, next);
      if (before) events.push({ type: "text", delta: before });
      if (next === call) {
        this.#buffer = this.#buffer.slice(call + CALL_OPEN.length);
        this.#mode = "call";
      } else {
        this.#buffer = this.#buffer.slice(think + THINK_OPEN.length);
        this.#mode = "think";
      }
      return true;
    }
    // Whitespace before a call is not text: hold a trailing run back until what follows is known.
    const partial = final ? 0 : heldBack(this.#buffer, [CALL_OPEN, THINK_OPEN]);
    const beforePartial = this.#buffer.slice(0, this.#buffer.length - partial);
    const keep = final ? 0 : partial + (beforePartial.length - beforePartial.trimEnd().length);
    const text = this.#buffer.slice(0, this.#buffer.length - keep);
    if (text) events.push({ type: "text", delta: text });
    this.#buffer = this.#buffer.slice(text.length);
    return false;
  }

  /** One call's block, once it is decided. */
  #call(events: ModelOutputEvent[], final: boolean): boolean {
    if (this.#buffer === "" && !final) return false;
    const walked = this.#walk(final);
    if (walked === INCOMPLETE) return false;
    events.push(walked.event);
    this.#buffer = this.#buffer.slice(walked.consumed);
    this.#mode = "text";
    this.#trimStart = true;
    return true;
  }

  /** A malformed block: everything up to its `</tool_call>` (or the end), never run. */
  #invalid(name: string, error: string, final: boolean): Walked {
    const close = this.#buffer.indexOf(CALL_CLOSE);
    if (close === -1 && !final) return INCOMPLETE;
    const end = close === -1 ? this.#buffer.length : close;
    return { event: { type: "tool-call-invalid", name, text: this.#buffer.slice(0, end).trim(), error }, consumed: close === -1 ? end : close + CALL_CLOSE.length };
  }

  #walk(final: boolean): Walked {
    const body = this.#buffer;
    let position = skipSpace(body, 0);
    if (!body.startsWith(FUNCTION_OPEN, position)) {
      if (!final && (position === body.length || couldBecome(body, position, [FUNCTION_OPEN]))) return INCOMPLETE;
      return this.#invalid("", "the call must start with <function=NAME>", final);
    }
    const nameEnd = body.indexOf(">", position + FUNCTION_OPEN.length);
    if (nameEnd === -1) return final ? this.#invalid("", "the <function= tag is not closed with >", final) : INCOMPLETE;
    const name = body.slice(position + FUNCTION_OPEN.length, nameEnd);
    if (name === "" || NAME_REJECT.test(name)) return this.#invalid("", `"${name}" is not a tool name`, final);
    const schema = this.#schemas.get(name) ?? {};
    const known = (key: string) => Object.hasOwn(schema, key);
    const input: Record<string, unknown> = {};
    position = nameEnd + 1;

    for (;;) {
      position = skipSpace(body, position);
      if (position === body.length) {
        if (!final) return INCOMPLETE;
        return { event: { type: "tool-call", name, input }, consumed: position };
      }
      if (body.startsWith(FUNCTION_CLOSE, position)) {
        const after = skipSpace(body, position + FUNCTION_CLOSE.length);
        if (body.startsWith(CALL_CLOSE, after)) return { event: { type: "tool-call", name, input }, consumed: after + CALL_CLOSE.length };
        if (!final && (after === body.length || couldBecome(body, after, [CALL_CLOSE]))) return INCOMPLETE;
        return { event: { type: "tool-call", name, input }, consumed: position + FUNCTION_CLOSE.length };
      }
      if (!body.startsWith(PARAMETER_OPEN, position)) {
        if (!final && couldBecome(body, position, [FUNCTION_CLOSE, PARAMETER_OPEN, CALL_CLOSE])) return INCOMPLETE;
        if (body.startsWith(CALL_CLOSE, position)) return { event: { type: "tool-call", name, input }, consumed: position + CALL_CLOSE.length };
        return this.#invalid(name, "expected <parameter=NAME> or </function> in the call", final);
      }
      const keyEnd = body.indexOf(">", position + PARAMETER_OPEN.length);
      if (keyEnd === -1) return final ? this.#invalid(name, "a <parameter= tag is not closed with >", final) : INCOMPLETE;
      const key = body.slice(position + PARAMETER_OPEN.length, keyEnd);
      const value = this.#valueEnd(body, keyEnd + 1, known, final);
      if (value === INCOMPLETE) return INCOMPLETE;
      // Defined, not assigned: a parameter named `__proto__` is a key like any other, not the prototype.
      Object.defineProperty(input, key, {
        value: convertParameterValue(body.slice(keyEnd + 1, value.end), known(key) ? schema[key] : undefined),
        enumerable: true,
        writable: true,
        configurable: true,
      });
      position = value.next;
    }
  }

  /**
   * Where the value starting at `from` ends (`end`) and where the walk goes on
   * (`next`), as vLLM decides it. First choice: a `</parameter>` that a known
   * `<parameter=`, `</function>`, `</tool_call>` or the end of the output
   * follows (nested `<parameter=…>`/`</parameter>` pairs counted), searched
   * to the end of the call's block (a `</tool_call>` that another
   * `<tool_call>` follows). Without one (the close is missing): the next
   * known `<parameter=` at the start of a line, else the first `</function>`,
   * else the block's end. Undecided until the block's end has arrived.
   */
  #valueEnd(body: string, from: number, known: (key: string) => boolean, final: boolean): typeof INCOMPLETE | { end: number; next: number } {
    /** A `<parameter=KEY>` at `index` names a known key: true / false, or undefined when its `>` has not arrived. */
    const knownTagAt = (index: number): boolean | undefined => {
      const close = body.indexOf(">", index + PARAMETER_OPEN.length);
      if (close === -1) return undefined;
      return known(body.slice(index + PARAMETER_OPEN.length, close));
    };
    // Where the block ends: a </tool_call> followed by another <tool_call>; else the output's end.
    let blockEnd = body.length;
    for (let at = body.indexOf(CALL_CLOSE, from); at !== -1; at = body.indexOf(CALL_CLOSE, at + 1)) {
      const after = skipSpace(body, at + CALL_CLOSE.length);
      if (body.startsWith(CALL_OPEN, after)) {
        blockEnd = at;
        break;
      }
      if (!final && (after === body.length || couldBecome(body, after, [CALL_OPEN]))) return INCOMPLETE;
    }
    const endOfOutput = blockEnd === body.length;
    if (endOfOutput && !final) return INCOMPLETE;

    let depth = 0;
    for (let index = from; ; ) {
      const open = body.indexOf(PARAMETER_OPEN, index);
      const close = body.indexOf(PARAMETER_CLOSE, index);
      if (close === -1 || close >= blockEnd) break;
      if (open !== -1 && open < close) {
        depth++;
        index = open + PARAMETER_OPEN.length;
        continue;
      }
      index = close + PARAMETER_CLOSE.length;
      if (depth > 0) {
        depth--;
        continue;
      }
      const after = skipSpace(body, index);
      if (after >= blockEnd && endOfOutput) return { end: close, next: after };
      if (body.startsWith(FUNCTION_CLOSE, after) || body.startsWith(CALL_CLOSE, after)) return { end: close, next: after };
      if (body.startsWith(PARAMETER_OPEN, after) && knownTagAt(after)) return { end: close, next: after };
    }
    // No closing </parameter>: the next known parameter at a line start, else </function>, else the block's end.
    for (let at = body.indexOf(PARAMETER_OPEN, from); at !== -1 && at < blockEnd; at = body.indexOf(PARAMETER_OPEN, at + 1)) {
      if ((at === 0 || body[at - 1] === "\n") && knownTagAt(at)) return { end: at, next: at };
    }
    const functionClose = body.indexOf(FUNCTION_CLOSE, from);
    if (functionClose !== -1 && functionClose < blockEnd) return { end: functionClose, next: functionClose };
    return { end: blockEnd, next: blockEnd };
  }
}
