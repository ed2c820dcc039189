import type { CallBodyReader } from "./call-body-reader.js";
import type { ModelOutputEvent } from "./model-output-event.js";
import { couldBecome, partialTagLength } from "./partial-tag.js";
import { convertParameterValue } from "./qwen35-parameter-value.js";
import { ParameterValueScan } from "./qwen35-value-scan.js";

type Schema = Record<string, unknown>;

const FUNCTION_OPEN = "<function=";
const FUNCTION_CLOSE = "</function>";
const PARAMETER_OPEN = "<parameter=";
const CALL_CLOSE = "</tool_call>";
/** Names the parser refuses (vLLM's: they are template placeholders or prose, not tool names). */
const NAME_REJECT = /[{}<>"'\s]/;
const SPACE = /\s/;
const CUT_OFF = "the reply ended before </tool_call>: the call was cut off";

type State = "open" | "name" | "between" | "key" | "value" | "after-function" | "invalid";
type Done = { event: ModelOutputEvent; rest: string };

/**
 * One Qwen3.5 call's body as it streams, with vLLM's `qwen3_coder`
 * semantics: `<function=NAME>`, then `<parameter=KEY>VALUE</parameter>`
 * (whitespace between tags; where a value ends: models/qwen35-value-scan.ts;
 * typed by the tool's schema: models/qwen35-parameter-value.ts), then
 * `</function>` and `</tool_call>`. A call the reply cuts off (no
 * `</function>` or `</tool_call>` before it ends) is invalid, as is a
 * malformed one; neither runs. Keeps its place: each character is read a
 * bounded number of times.
 */
export class Qwen35CallReader implements CallBodyReader {
  readonly #schemas: ReadonlyMap<string, Record<string, Schema>>;
  #state: State = "open";
  /** Text not read yet (always the end of what was pushed). */
  #tail = "";
  #at = 0;
  #body: string[] = [];
  #pushed = 0;
  #name = "";
  #schema: Record<string, Schema> = {};
  #key = "";
  #value?: ParameterValueScan;
  #input: Record<string, unknown> = {};
  #error = "";
  #invalidName = "";

  /** `schemas`: each offered tool's `properties`, by name. */
  constructor(schemas: ReadonlyMap<string, Record<string, Schema>>) {
    this.#schemas = schemas;
  }

  push(text: string): Done | undefined {
    this.#body.push(text);
    this.#pushed += text.length;
    this.#tail = this.#tail.slice(this.#at) + text;
    this.#at = 0;
    return this.#run(false);
  }

  end(): ModelOutputEvent {
    return this.#run(true)!.event;
  }

  #run(final: boolean): Done | undefined {
    for (;;) {
      const step = this.#step(final);
      if (step === "wait") return undefined;
      if (step !== "next") return step;
    }
  }

  #step(final: boolean): Done | "next" | "wait" {
    switch (this.#state) {
      case "open":
        return this.#expect(final, [FUNCTION_OPEN], () => this.#fail("", "the call must start with <function=NAME>"), () => {
          this.#state = "name";
        });
      case "name":
        return this.#readUntilClose(final, (name) => {
          if (name === "" || NAME_REJECT.test(name)) return this.#fail("", `"${name}" is not a tool name`);
          this.#name = name;
          this.#schema = this.#schemas.get(name) ?? {};
          this.#state = "between";
          return "next";
        }, "the <function= tag is not closed with >");
      case "between":
        return this.#expect(final, [PARAMETER_OPEN, FUNCTION_CLOSE, CALL_CLOSE], () => this.#fail(this.#name, "expected <parameter=NAME> or </function> in the call"), (tag) => {
          if (tag === CALL_CLOSE) return this.#done();
          this.#state = tag === PARAMETER_OPEN ? "key" : "after-function";
          return "next";
        });
      case "key":
        return this.#readUntilClose(final, (key) => {
          this.#key = key;
          this.#value = new ParameterValueScan(new Set(Object.keys(this.#schema)));
          this.#state = "value";
          return "next";
        }, "a <parameter= tag is not closed with >");
      case "value":
        return this.#readValue(final);
      case "after-function": {
        this.#skipSpace();
        if (this.#tail.startsWith(CALL_CLOSE, this.#at)) {
          this.#at += CALL_CLOSE.length;
          return this.#done();
        }
        if (!final && (this.#at === this.#tail.length || couldBecome(this.#tail, this.#at, CALL_CLOSE))) return "wait";
        // `</function>` closed the call, though no `</tool_call>` follows it.
        return this.#done();
      }
      case "invalid":
        return this.#readInvalid(final);
    }
  }

  #skipSpace(): void {
    while (this.#at < this.#tail.length && SPACE.test(this.#tail[this.#at]!)) this.#at++;
  }

  /** Whitespace, then one of `tags`: `then(tag)` once it is whole; `otherwise()` for anything else. */
  #expect(final: boolean, tags: readonly string[], otherwise: () => Done | "next", then: (tag: string) => Done | "next" | void): Done | "next" | "wait" {
    this.#skipSpace();
    if (this.#at === this.#tail.length) return final ? this.#fail(this.#name, CUT_OFF) : "wait";
    const tag = tags.find((candidate) => this.#tail.startsWith(candidate, this.#at));
    if (tag !== undefined) {
      this.#at += tag.length;
      return then(tag) ?? "next";
    }
    if (!final && tags.some((candidate) => couldBecome(this.#tail, this.#at, candidate))) return "wait";
    return otherwise();
  }

  /** A tag's name, up to its `>` (`#key` holds what came so far). */
  #readUntilClose(final: boolean, then: (name: string) => Done | "next", unclosed: string): Done | "next" | "wait" {
    const close = this.#tail.indexOf(">", this.#at);
    if (close === -1) {
      this.#key += this.#tail.slice(this.#at);
      this.#at = this.#tail.length;
      return final ? this.#fail(this.#state === "key" ? this.#name : "", unclosed) : "wait";
    }
    const name = this.#key + this.#tail.slice(this.#at, close);
    this.#key = "";
    this.#at = close + 1;
    return then(name);
  }

  #readValue(final: boolean): Done | "next" | "wait" {
    const text = this.#tail.slice(this.#at);
    this.#at = this.#tail.length;
    const end = this.#value!.read(text, final);
    if (!end) return final ? this.#fail(this.#name, CUT_OFF) : "wait";
    if ("cutOff" in end) return this.#fail(this.#name, CUT_OFF);
    const key = this.#key;
    const known = Object.hasOwn(this.#schema, key);
    // Defined, not assigned: a parameter named `__proto__` is a key like any other, not the prototype.
    Object.defineProperty(this.#input, key, { value: convertParameterValue(end.raw, known ? this.#schema[key] : undefined), enumerable: true, writable: true, configurable: true });
    this.#key = "";
    this.#value = undefined;
    this.#tail = end.resume;
    this.#at = 0;
    this.#state = "between";
    return "next";
  }

  #done(): Done {
    return { event: { type: "tool-call", name: this.#name, input: this.#input }, rest: this.#tail.slice(this.#at) };
  }

  /** A malformed call: everything up to its `</tool_call>` (or the reply's end) is the invalid call's text. */
  #fail(name: string, error: string): "next" {
    this.#state = "invalid";
    this.#invalidName = name;
    this.#error = error;
    return "next";
  }

  #readInvalid(final: boolean): Done | "wait" {
    const close = this.#tail.indexOf(CALL_CLOSE, this.#at);
    if (close === -1 && !final) {
      this.#at = this.#tail.length - partialTagLength(this.#tail.slice(-CALL_CLOSE.length), [CALL_CLOSE]);
      return "wait";
    }
    // The tail is always the end of what was pushed: an index into it is an offset into the body.
    const end = close === -1 ? this.#pushed : this.#pushed - this.#tail.length + close;
    const text = this.#body.join("").slice(0, end).trim();
    return { event: { type: "tool-call-invalid", name: this.#invalidName, inputText: text, error: this.#error }, rest: close === -1 ? "" : this.#tail.slice(close + CALL_CLOSE.length) };
  }
}
