import { couldBecome, partialTagLength } from "./partial-tag.js";

const PARAMETER_OPEN = "<parameter=";
const PARAMETER_CLOSE = "</parameter>";
const FUNCTION_CLOSE = "</function>";
const CALL_OPEN = "<tool_call>";
const CALL_CLOSE = "</tool_call>";
const TAGS = [PARAMETER_CLOSE, PARAMETER_OPEN, FUNCTION_CLOSE, CALL_CLOSE];
const SPACE = /\s/;

/**
 * Where a value ended: its raw text, and the text after it that the call's
 * walk reads next (from the tag that ended it). `cutOff`: the reply ended
 * inside the value.
 */
export type ValueEnd = { raw: string; resume: string } | { cutOff: true };

/** A `</parameter>` (or `</tool_call>`) whose follower is being read. */
interface Look {
  kind: "parameter" | "call";
  /** Where the tag starts, from the value's start. */
  at: number;
  /** What followed it so far: whitespace, then the start of a tag. */
  space: string;
  tag: string;
}

/**
 * Finds where one `<parameter=KEY>` value ends, as vLLM's `qwen3_coder`
 * reads Qwen3.5's calls, keeping its place as text streams (each character
 * read a bounded number of times). The value ends at the first of:
 *
 * - a `</parameter>` that whitespace and then a `<parameter=` of a known
 *   key, `</function>`, `</tool_call>` or the end of the reply follow (any
 *   other `</parameter>` is text of the value);
 * - a `<parameter=` of a known key at the start of a line (the close was
 *   left out).
 *
 * Neither before the call block's end (a `</tool_call>` followed by another
 * `<tool_call>` or by the end): the value runs to the first `</function>`,
 * else to that `</tool_call>`; the reply ending first cut it off. So a value
 * can hold any text but those two ends (models/qwen35-call-reader.ts).
 */
export class ParameterValueScan {
  readonly #known: ReadonlySet<string>;
  /** No known key is longer: a `<parameter=` with no `>` this far names none. */
  readonly #longestKey: number;
  /** The value's text read so far (tags included: what ends the value is decided later). */
  #parts: string[] = [];
  #length = 0;
  #lastChar = "";
  #carry = "";
  #look?: Look;
  #functionClose = -1;
  /** Line-start `<parameter=` tags whose key has no `>` yet (each key runs to the next `>`), keys read from `#keyFrom`. */
  #keyStarts: number[] = [];
  #keyText = "";
  #keyFrom = -1;

  /** `known`: the keys of the tool's schema (only their tags end a value). */
  constructor(known: ReadonlySet<string>) {
    this.#known = known;
    this.#longestKey = Math.max(0, ...[...known].map((key) => key.length));
  }

  /** Reads more of the value (and of what follows it); `final`: the reply ends here. */
  read(text: string, final: boolean): ValueEnd | undefined {
    let input = this.#carry + text;
    this.#carry = "";
    for (;;) {
      if (this.#look) {
        const decided = this.#readLook(input, final);
        if (decided === "more") return undefined;
        if (typeof decided === "object") return decided;
        input = decided;
        continue;
      }
      const [at, tag] = earliest(input, this.#keyStarts.length ? [...TAGS, ">"] : TAGS);
      if (tag === undefined) {
        const keep = final ? 0 : partialTagLength(input.slice(-CALL_CLOSE.length), TAGS);
        this.#take(input.slice(0, input.length - keep));
        this.#carry = input.slice(input.length - keep);
        return final ? this.#blockEnd(this.#length, "", false) : undefined;
      }
      const start = this.#length + at;
      const lineStart = (at > 0 ? input[at - 1] : this.#lastChar) === "\n";
      this.#take(input.slice(0, at + tag.length));
      input = input.slice(at + tag.length);
      // A `>` ends every key being read (a closing tag's own `>` included).
      if (tag.endsWith(">") && this.#keyStarts.length) {
        const known = this.#knownKeyStart();
        if (known >= 0) return this.#end(known, input);
      }
      if (tag === PARAMETER_OPEN && lineStart) {
        this.#keyStarts.push(start);
        if (this.#keyFrom < 0) {
          this.#keyFrom = this.#length;
          this.#keyText = "";
        }
      } else if (tag === FUNCTION_CLOSE && this.#functionClose < 0) this.#functionClose = start;
      else if (tag === PARAMETER_CLOSE) this.#look = { kind: "parameter", at: start, space: "", tag: "" };
      else if (tag === CALL_CLOSE) this.#look = { kind: "call", at: start, space: "", tag: "" };
    }
  }

  #take(text: string): void {
    if (!text) return;
    this.#parts.push(text);
    this.#length += text.length;
    this.#lastChar = text[text.length - 1]!;
    if (this.#keyFrom < 0) return;
    this.#keyText += text;
    // The latest tag's key (the shortest) is past the longest known key without a `>`: none of them names one.
    const latest = this.#keyStarts.at(-1)! + PARAMETER_OPEN.length - this.#keyFrom;
    if (this.#keyText.length - latest > this.#longestKey + 1) this.#dropKeys();
  }

  #dropKeys(): void {
    this.#keyStarts = [];
    this.#keyFrom = -1;
    this.#keyText = "";
  }

  /** The keys read up to this `>`: where the first known one's tag starts, or -1. */
  #knownKeyStart(): number {
    const text = this.#keyText.slice(0, -1);
    const starts = this.#keyStarts;
    const from = this.#keyFrom;
    this.#dropKeys();
    return starts.find((start) => this.#known.has(text.slice(start + PARAMETER_OPEN.length - from))) ?? -1;
  }

  /** What follows a close: a decision, "more" (wait), or the text to read on as the value's. */
  #readLook(input: string, final: boolean): ValueEnd | "more" | string {
    const look = this.#look!;
    let index = 0;
    if (!look.tag) {
      while (index < input.length && SPACE.test(input[index]!)) index++;
      look.space += input.slice(0, index);
      if (index === input.length) {
        if (!final) return "more";
        // Only whitespace to the end of the reply: a close there ends the value, a `</tool_call>` the block.
        this.#look = undefined;
        return look.kind === "parameter" ? this.#end(look.at, look.space, PARAMETER_CLOSE.length) : this.#blockEnd(look.at, look.space, true);
      }
    }
    look.tag += input.slice(index);
    const verdict = this.#follower(look, final);
    if (verdict === "more") return "more";
    this.#look = undefined;
    const rest = look.space + look.tag;
    if (verdict === "no") return rest;
    return look.kind === "parameter" ? this.#end(look.at, rest, PARAMETER_CLOSE.length) : this.#blockEnd(look.at, rest, true);
  }

  /** Whether the text after a close makes it end the value ("yes"), not ("no"), or cannot say yet. */
  #follower(look: Look, final: boolean): "yes" | "no" | "more" {
    const text = look.tag;
    if (look.kind === "call") {
      if (text.startsWith(CALL_OPEN)) return "yes";
      return !final && couldBecome(text, 0, CALL_OPEN) ? "more" : "no";
    }
    if (text.startsWith(FUNCTION_CLOSE) || text.startsWith(CALL_CLOSE)) return "yes";
    if (text.startsWith(PARAMETER_OPEN)) {
      const close = text.indexOf(">", PARAMETER_OPEN.length);
      if (close !== -1) return this.#known.has(text.slice(PARAMETER_OPEN.length, close)) ? "yes" : "no";
      return final || text.length > PARAMETER_OPEN.length + this.#longestKey ? "no" : "more";
    }
    if (final) return "no";
    return [FUNCTION_CLOSE, CALL_CLOSE, PARAMETER_OPEN].some((tag) => couldBecome(text, 0, tag)) ? "more" : "no";
  }

  /** The value ends at `at`; the walk reads on `skip` characters later (`after`: what was read past the value's parts). */
  #end(at: number, after: string, skip = 0): ValueEnd {
    const text = this.#parts.join("");
    return { raw: text.slice(0, at), resume: text.slice(at + skip) + after };
  }

  /**
   * No close ended the value before `at`: the block's end (`closed`: a
   * `</tool_call>` there, `after` read past it) or the reply's. The value
   * runs to the first `</function>`, else to the block's `</tool_call>`; at
   * the reply's end without either it was cut off.
   */
  #blockEnd(at: number, after: string, closed: boolean): ValueEnd {
    if (this.#functionClose >= 0) return this.#end(this.#functionClose, after);
    return closed ? this.#end(at, after) : { cutOff: true };
  }
}

/** The first of `tags` in `text`: its index and the tag (none: `[-1, undefined]`). */
function earliest(text: string, tags: readonly string[]): [number, string | undefined] {
  let at = -1;
  let found: string | undefined;
  for (const tag of tags) {
    const index = text.indexOf(tag);
    if (index !== -1 && (at === -1 || index < at)) {
      at = index;
      found = tag;
    }
  }
  return [at, found];
}
