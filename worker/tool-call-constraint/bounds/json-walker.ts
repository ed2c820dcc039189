import { countKeyword } from "../grammar/json-value-rules.js";
import { alternativesOf, asSchema, resolveSchema, typesOf, type Schema } from "../grammar/schema-node.js";
import type { JsonContext } from "./json-context.js";
import { QUOTE, readStringByte, type Forbidden, type StringFrame } from "./json-string-frame.js";
import { admitsKey, bounded, childrenOf, memberSchema, stringLiterals } from "./schema-keys.js";

// Re-exported: xml-walker.ts and call-walker.ts read them from here.
export type { JsonContext } from "./json-context.js";
export type { Forbidden } from "./json-string-frame.js";

/** The longest run of whitespace between tokens (JSON's, and between Qwen3.5's tags): a model cannot loop on it. */
export const WHITESPACE_LIMIT = 24;

/** At most this many readings are followed at once (one per offered tool while a call's name is unknown, per `anyOf` alternative). */
const MAX_PATHS = 64;

const isSpace = (byte: number) => byte === 0x20 || byte === 0x0a || byte === 0x09 || byte === 0x0d;

type Frame =
  | { kind: "value"; schema: Schema }
  | { kind: "object"; schema: Schema; phase: "key" | "colon" | "next"; key: string; written: string[] }
  | { kind: "array"; items: Schema; count: number; min: number; max: number; phase: "first" | "next" | "item" }
  | StringFrame
  | { kind: "scalar" }
  | { kind: "done" };

/** One reading of the text so far: its stack of frames, the current whitespace run, the schema its references resolve in. */
interface Path {
  frames: Frame[];
  space: number;
  root: Schema;
}

const copyPath = (path: Path): Path => ({ frames: path.frames.map((frame) => ({ ...frame })), space: path.space, root: path.root });

/**
 * Reads JSON bytes against a JSON Schema, following every reading an
 * ambiguous schema allows (an `anyOf` of two object alternatives, a call
 * whose arguments come before its name), and says when a byte breaks a bound
 * that the EBNF leaves out (grammar/json-value-rules.ts): a string's
 * `minLength` / `maxLength` (in characters, an escape counting one), an
 * array's `minItems` / `maxItems`, a whitespace run past
 * {@link WHITESPACE_LIMIT}, the format's closer inside a string. xgrammar
 * holds the text to the grammar; this reads only what the grammar lets
 * through, so it checks no syntax of its own beyond what it needs to follow.
 */
export class JsonWalker {
  #paths: Path[];
  readonly #forbidden?: Forbidden;
  /** A byte after the value that ends it (`<` before Qwen3.5's `</parameter>`). */
  readonly #after: number;

  /** `readings`: what the value may be (each schema with the schema its references resolve in). */
  constructor(options: { readings: readonly { schema: Schema; root: Schema }[]; forbidden?: Forbidden; after?: number; paths?: Path[] }) {
    this.#forbidden = options.forbidden;
    this.#after = options.after ?? -1;
    this.#paths = options.paths ?? options.readings.map(({ schema, root }) => ({ frames: [{ kind: "value", schema }], space: 0, root }));
  }

  #with(paths: Path[]): JsonWalker {
    return new JsonWalker({ readings: [], ...(this.#forbidden && { forbidden: this.#forbidden }), after: this.#after, paths });
  }

  clone(): JsonWalker {
    return this.#with(this.#paths.map(copyPath));
  }

  /** Readings still alive (0: the bytes broke every one). */
  get paths(): number {
    return this.#paths.length;
  }

  /** Whether the value is whole (only whitespace may follow). */
  get done(): boolean {
    return this.#paths.some((path) => path.frames.at(-1)?.kind === "done");
  }

  /** One walker per reading (itself when there is one). */
  split(): JsonWalker[] {
    if (this.#paths.length <= 1) return [this];
    return this.#paths.map((path) => this.#with([copyPath(path)]));
  }

  /** The first reading's context (split() first when there are several). */
  context(): JsonContext {
    const path = this.#paths[0];
    if (!path) return { space: 0, boundedValue: false, arrayEdge: false };
    const { frames, space, root } = path;
    const top = frames.at(-1)!;
    const context: JsonContext = { space, boundedValue: false, arrayEdge: false, ...(this.#forbidden && { forbidden: this.#forbidden }) };
    if (top.kind === "string") context.string = { count: top.count, min: top.min, max: top.max, escape: top.escape, forbid: top.forbid, literal: top.literals !== undefined };
    for (let index = frames.length - 1; index >= 0; index--) {
      const frame = frames[index]!;
      if (frame.kind !== "array" || (frame.min === 0 && frame.max === Infinity)) continue;
      context.array ??= { count: frame.count, min: frame.min, max: frame.max };
      if (frame.count + 1 >= frame.max || frame.count < frame.min) context.arrayEdge = true;
    }
    // A token may hold the next key, its colon and a whole short value (`"a": "",`): the bounds of what may come next, one level down.
    // Inside a string, what follows it is its container's: a token may close a key and hold the value after it.
    const holder = top.kind === "string" ? frames.at(-2) : top;
    const next = holder?.kind === "value" ? [holder.schema] : holder?.kind === "array" ? [holder.items] : holder?.kind === "object" ? childrenOf(resolveSchema(holder.schema, root) ?? {}) : [];
    context.boundedValue = next.some((schema) => bounded(resolveSchema(schema, root) ?? {}, root));
    return context;
  }

  /** Reads bytes; false once no reading survives them. */
  feed(bytes: Uint8Array, from = 0, to = bytes.length): boolean {
    for (let index = from; index < to && this.#paths.length; index++) {
      const byte = bytes[index]!;
      const next: Path[] = [];
      for (const path of this.#paths) this.#step(path, byte, next);
      this.#paths = next.length > MAX_PATHS ? next.slice(0, MAX_PATHS) : next;
    }
    return this.#paths.length > 0;
  }

  /** One byte on one reading: the readings it leads to go into `out` (none: it broke a bound). */
  #step(path: Path, byte: number, out: Path[]): void {
    const frames = path.frames;
    const top = frames.at(-1)!;
    if (top.kind === "string") {
      if (readStringByte(top, byte, this.#forbidden)) return;
      if (top.kind === "string" && top.escape === -1) {
        // Closed: a key picks its property's schema; a value is done.
        frames.pop();
        if (top.key) {
          const object = frames.at(-1);
          if (object?.kind !== "object") return;
          // A key the grammar would not write for this reading's schema: not this reading.
          if (!admitsKey(resolveSchema(object.schema, path.root) ?? {}, top.text)) return;
          object.key = top.text;
          object.written.push(top.text);
          object.phase = "colon";
        } else this.#finishValue(frames);
      }
      out.push(path);
      return;
    }
    if (top.kind === "scalar") {
      if (byte === 0x2c || byte === 0x7d || byte === 0x5d || isSpace(byte) || byte === this.#after) {
        frames.pop();
        this.#finishValue(frames);
        this.#step(path, byte, out);
        return;
      }
      out.push(path);
      return;
    }
    if (isSpace(byte)) {
      if (++path.space > WHITESPACE_LIMIT) return;
      out.push(path);
      return;
    }
    path.space = 0;
    switch (top.kind) {
      case "done":
        out.push(path);
        return;
      case "value":
        frames.pop();
        this.#startValue(path, top.schema, byte, out);
        return;
      case "object":
        if (top.phase === "key") {
          if (byte === 0x7d) {
            if (!this.#closes(top, path.root)) return;
            frames.pop();
            this.#finishValue(frames);
          } else if (byte === QUOTE) frames.push({ kind: "string", count: 0, min: 0, max: Infinity, escape: 0, key: true, text: "", forbid: 0 });
          else return;
        } else if (top.phase === "colon") {
          if (byte !== 0x3a) return;
          const resolved = resolveSchema(top.schema, path.root) ?? {};
          const child = memberSchema(resolved, top.key);
          top.phase = "next";
          frames.push({ kind: "value", schema: child });
        } else if (byte === 0x2c) top.phase = "key";
        else if (byte === 0x7d) {
          if (!this.#closes(top, path.root)) return;
          frames.pop();
          this.#finishValue(frames);
        } else return;
        out.push(path);
        return;
      case "array":
        if (byte === 0x5d) {
          if (top.phase === "item" || top.count < top.min) return;
          frames.pop();
          this.#finishValue(frames);
          out.push(path);
          return;
        }
        if (top.phase === "next") {
          if (byte !== 0x2c || top.count >= top.max) return;
          top.phase = "item";
          out.push(path);
          return;
        }
        // An item starts here.
        top.count += 1;
        if (top.count > top.max) return;
        top.phase = "next";
        this.#startValue(path, top.items, byte, out);
        return;
    }
  }

  /** A value of `schema` starting with `byte`: one reading per alternative it could be. */
  #startValue(path: Path, schema: Schema, byte: number, out: Path[]): void {
    const resolved = resolveSchema(schema, path.root) ?? {};
    const alternatives = alternativesOf(resolved);
    if (alternatives && alternatives.length) {
      alternatives.forEach((alternative, index) => {
        const branch = index === alternatives.length - 1 ? path : copyPath(path);
        this.#startValue(branch, alternative, byte, out);
      });
      return;
    }
    const types = typesOf(resolved);
    const frames = path.frames;
    const exact = Array.isArray(resolved.enum) || "const" in resolved;
    if (byte === QUOTE && (types.includes("string") || exact)) {
      const literals = exact ? stringLiterals(resolved) : undefined;
      if (literals && !literals.length) return;
      frames.push({
        kind: "string",
        count: 0,
        min: exact ? 0 : (countKeyword(resolved, "minLength") ?? 0),
        max: exact ? Infinity : (countKeyword(resolved, "maxLength") ?? Infinity),
        escape: 0,
        key: false,
        text: "",
        ...(literals && { literals }),
        forbid: 0,
      });
    } else if (byte === 0x7b && (types.includes("object") || exact)) frames.push({ kind: "object", schema: resolved, phase: "key", key: "", written: [] });
    else if (byte === 0x5b && (types.includes("array") || exact)) {
      // With `prefixItems`, `items` holds only the items after them: the bounds hold none (the grammar holds each).
      const items = resolved.items === undefined || Array.isArray(resolved.prefixItems) ? {} : (asSchema(resolved.items) ?? {});
      frames.push({ kind: "array", items, count: 0, min: exact ? 0 : (countKeyword(resolved, "minItems") ?? 0), max: exact ? Infinity : (countKeyword(resolved, "maxItems") ?? Infinity), phase: "first" });
    } else if (byte !== QUOTE && byte !== 0x7b && byte !== 0x5b) frames.push({ kind: "scalar" });
    else return;
    out.push(path);
  }

  /** Whether an object may close here: every required key of its schema written (the grammar writes them all). */
  #closes(frame: Extract<Frame, { kind: "object" }>, root: Schema): boolean {
    const schema = resolveSchema(frame.schema, root) ?? {};
    const required = Array.isArray(schema.required) ? schema.required : [];
    if (!required.length) return true;
    const encoder = new TextEncoder();
    return required.every((key) => typeof key !== "string" || frame.written.includes(String.fromCharCode(...encoder.encode(JSON.stringify(key).slice(1, -1)))));
  }

  /** A value just ended: its container moves on (an array's item is done), or the whole value is. */
  #finishValue(frames: Frame[]): void {
    if (!frames.length) frames.push({ kind: "done" });
  }
}
