import { unlistedParameterSchema, xmlParameters } from "../grammar/build-call-grammar.js";
import { countKeyword } from "../grammar/json-value-rules.js";
import { readAlternative, readsAsLooseText, readsAsText } from "../grammar/reads-as-text.js";
import { resolveSchema, type Schema } from "../grammar/schema-node.js";
import { JsonWalker, WHITESPACE_LIMIT, type JsonContext } from "./json-walker.js";

const encoder = new TextEncoder();
const CLOSE = "</parameter>";
const LINE_TAG = "<parameter=";
const isSpace = (byte: number) => byte === 0x20 || byte === 0x0a || byte === 0x09 || byte === 0x0d;
const startsCharacter = (byte: number) => byte < 0x80 || byte >= 0xc0;
/** The forms the end of a text value can take while its close is being written: a newline, then part of `</parameter>`, or that part alone. */
const pendingForm = (text: string) => (text.startsWith("\n") ? CLOSE.startsWith(text.slice(1)) : CLOSE.startsWith(text)) && text.length > 0;

/** A tool as the walker reads its calls: each parameter's schema, and which keys are known. */
interface XmlTool {
  root: Schema;
  parameters: Map<string, Schema>;
  /** What an unlisted parameter's text is held to (grammar/build-call-grammar.ts's `unlistedParameterSchema`). */
  unlisted?: Schema;
  longestKey: number;
}

/** A text value being read: what the parser will count of it (models/qwen35-parameter-value.ts), and what could end it. */
interface RawValue {
  count: number;
  min: number;
  max: number;
  /** Bytes that may yet turn out to be the value's end (a newline the parser drops, part of `</parameter>`). */
  pending: string;
  start: boolean;
  last: number;
  /** A `<parameter=` at a line start being read (its length so far, then its key): a known one would end the value. */
  tag: number;
  key: string;
  bounded: boolean;
}

/** Where the XML walker stands, for choosing which tokens to check (bounds-restriction.ts). */
export interface XmlContext {
  space: number;
  /** Inside a tag (`<parameter=KEY`): the token that closes it may start the value. */
  tag?: boolean;
  raw?: { count: number; min: number; max: number; pending: string; tag: boolean; start: boolean; last: number; bounded: boolean };
  json?: JsonContext;
}

type State = "open" | "tag" | "between" | "raw" | "json" | "done";

/**
 * Reads a Qwen3.5 call's bytes (after `<tool_call>`) and says when one breaks
 * a bound the EBNF leaves out (grammar/build-call-grammar.ts): a whitespace
 * run between tags past {@link WHITESPACE_LIMIT}; a text value's
 * `minLength` / `maxLength` counted as the parser counts it (one leading and
 * one trailing newline dropped, in characters); a known `<parameter=KEY>` at
 * a line start inside a text value (the parser would end the value there);
 * in a JSON value, what {@link JsonWalker} checks, with `</parameter>` kept
 * out of its strings.
 */
export class XmlWalker {
  readonly #tools: ReadonlyMap<string, XmlTool>;
  #state: State = "open";
  #space = 0;
  /** A tag being read in `tag` state (`<function=NAME>`, `<parameter=KEY>`, `</function>`, …). */
  #tag = "";
  #tool?: XmlTool;
  #raw?: RawValue;
  #json?: JsonWalker;

  constructor(tools: ReadonlyMap<string, XmlTool>) {
    this.#tools = tools;
  }

  /** The walker for `tools` (each offered tool's name and input schema). */
  static for(tools: readonly { name: string; inputSchema: Record<string, unknown> }[]): XmlWalker {
    const map = new Map<string, XmlTool>();
    for (const tool of tools) {
      const parameters = new Map(xmlParameters(tool.inputSchema).map(({ key, schema }) => [key, schema]));
      const unlisted = unlistedParameterSchema(tool.inputSchema);
      map.set(tool.name, { root: tool.inputSchema, parameters, ...(unlisted && { unlisted }), longestKey: Math.max(0, ...[...parameters.keys()].map((key) => encoder.encode(key).length)) });
    }
    return new XmlWalker(map);
  }

  clone(): XmlWalker {
    const copy = new XmlWalker(this.#tools);
    copy.#state = this.#state;
    copy.#space = this.#space;
    copy.#tag = this.#tag;
    if (this.#tool) copy.#tool = this.#tool;
    if (this.#raw) copy.#raw = { ...this.#raw };
    if (this.#json) copy.#json = this.#json.clone();
    return copy;
  }

  /** One walker per reading of a JSON value (itself otherwise). */
  split(): XmlWalker[] {
    if (this.#state !== "json") return [this];
    const readings = this.#json!.split();
    if (readings.length === 1) return [this];
    return readings.map((json) => {
      const copy = this.clone();
      copy.#json = json;
      return copy;
    });
  }

  context(): XmlContext {
    if (this.#state === "raw") {
      const raw = this.#raw!;
      return { space: 0, raw: { count: raw.count, min: raw.min, max: raw.max, pending: raw.pending, tag: raw.tag >= 0, start: raw.start, last: raw.last, bounded: raw.bounded } };
    }
    if (this.#state === "json") {
      const json = this.#json!.context();
      return { space: json.space, json };
    }
    // A token that ends a `<parameter=KEY>` tag may go on into its value.
    return { space: this.#space, ...(this.#state === "tag" && { tag: true }) };
  }

  /** Reads bytes; false once they break a bound. */
  feed(bytes: Uint8Array, from = 0, to = bytes.length): boolean {
    for (let index = from; index < to; index++) {
      const byte = bytes[index]!;
      switch (this.#state) {
        case "raw":
          if (!this.#rawByte(byte)) return false;
          continue;
        case "json": {
          const json = this.#json!;
          // A `<` ends a number written right before `</parameter>`, then starts that tag; inside a string it is text.
          // Whitespace after a whole value still goes to the JSON walker, which caps its run.
          if ((!json.done || isSpace(byte)) && !json.feed(bytes, index, index + 1)) return false;
          if (byte === 0x3c && json.done) {
            this.#state = "tag";
            this.#tag = "<";
          }
          continue;
        }
        case "tag":
          this.#tag += String.fromCharCode(byte);
          if (byte === 0x3e) this.#endTag();
          continue;
        default:
          if (isSpace(byte)) {
            if (++this.#space > WHITESPACE_LIMIT) return false;
            continue;
          }
          this.#space = 0;
          if (byte === 0x3c && this.#state !== "done") {
            this.#state = "tag";
            this.#tag = "<";
          }
      }
    }
    return true;
  }

  /** A whole tag (`#tag`, bytes as chars): where it leads. */
  #endTag(): void {
    const tag = this.#tag;
    this.#tag = "";
    if (tag.startsWith("<function=")) {
      this.#tool = this.#tools.get(new TextDecoder().decode(Uint8Array.from(tag.slice(10, -1), (char) => char.charCodeAt(0))));
      this.#state = "between";
      return;
    }
    if (tag.startsWith(LINE_TAG)) {
      const key = new TextDecoder().decode(Uint8Array.from(tag.slice(LINE_TAG.length, -1), (char) => char.charCodeAt(0)));
      // An unlisted parameter (the grammar admits one, first, where the schema allows text) is read as text.
      this.#startValue(this.#tool?.parameters.get(key) ?? this.#tool?.unlisted ?? { type: "string" });
      return;
    }
    this.#state = tag === "</tool_call>" ? "done" : "between";
  }

  #startValue(schema: Schema): void {
    const root = this.#tool?.root ?? {};
    const resolved = resolveSchema(schema, root) ?? {};
    this.#space = 0;
    if (readsAsText(resolved) || readsAsLooseText(resolved)) {
      const text = readsAsText(resolved) ? readAlternative(resolved) : {};
      const exact = Array.isArray(text.enum);
      const min = exact ? 0 : (countKeyword(text, "minLength") ?? 0);
      const max = exact ? Infinity : (countKeyword(text, "maxLength") ?? Infinity);
      this.#raw = { count: 0, min, max, pending: "", start: true, last: 0x3e, tag: -1, key: "", bounded: min > 0 || max < Infinity };
      this.#state = "raw";
      return;
    }
    this.#json = new JsonWalker({ readings: [{ schema: readAlternative(resolved), root }], forbidden: encoder.encode(CLOSE), after: 0x3c });
    this.#state = "json";
  }

  /** One byte of a text value; false when it breaks a bound. */
  #rawByte(byte: number): boolean {
    const raw = this.#raw!;
    if (!this.#lineTag(raw, byte)) return false;
    raw.last = byte;
    if (raw.start) {
      raw.start = false;
      // The parser drops one leading newline.
      if (byte === 0x0a) return true;
    }
    const text = raw.pending + String.fromCharCode(byte);
    if (text.endsWith(CLOSE)) {
      if (raw.count < raw.min) return false;
      this.#raw = undefined;
      this.#state = "between";
      this.#space = 0;
      return true;
    }
    // The longest end of the text that may still be the value's end is held; the rest is the value's.
    let keep = text.length;
    while (keep > 0 && !pendingForm(text.slice(text.length - keep))) keep--;
    const moved = text.slice(0, text.length - keep);
    for (let index = 0; index < moved.length; index++) if (startsCharacter(moved.charCodeAt(index))) raw.count += 1;
    raw.pending = text.slice(text.length - keep);
    return raw.count <= raw.max;
  }

  /** Watches for a known `<parameter=KEY>` at a line start inside a text value; false when one is written. */
  #lineTag(raw: RawValue, byte: number): boolean {
    if (raw.tag < 0) {
      if (byte === 0x3c && raw.last === 0x0a) raw.tag = 1;
      return true;
    }
    if (raw.tag < LINE_TAG.length) {
      raw.tag = byte === LINE_TAG.charCodeAt(raw.tag) ? raw.tag + 1 : -1;
      if (raw.tag === LINE_TAG.length) raw.key = "";
      return true;
    }
    if (byte === 0x3e) {
      const key = new TextDecoder().decode(Uint8Array.from(raw.key, (char) => char.charCodeAt(0)));
      raw.tag = -1;
      return !this.#tool?.parameters.has(key);
    }
    raw.key += String.fromCharCode(byte);
    if (raw.key.length > (this.#tool?.longestKey ?? 0)) raw.tag = -1;
    return true;
  }
}
