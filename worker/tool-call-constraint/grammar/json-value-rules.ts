import { toPythonStyleJson } from "../../../models/python-style-json.js";
import { numberRange, numberRangeRules } from "./number-range-rules.js";
import { ebnfLiteral } from "./rename-ebnf-rules.js";
import { unlistedKeyRule } from "./unlisted-key-rules.js";
import { alternativesOf, asSchema, isUnconstrained, jsonTypeOf, resolveSchema, typesOf, unenforcedKeywords, type JsonType, type Schema } from "./schema-node.js";

/**
 * Which reader the grammar is for: xgrammar masks tokens with it (lengths
 * and item counts are left to the bounds, bounds/, so no repetition is
 * unrolled and it compiles in milliseconds); the completion planner plans a
 * call's shortest end with it (minimum lengths and counts written out).
 */
export type GrammarFlavor = "xgrammar" | "planner";

/** Rules every JSON value grammar shares (added once per grammar). */
const BASE_RULES: Record<string, string> = {
  // JSON's whitespace, unbounded here: bounds/ caps each run.
  j_ws: "[ \\n\\t\\r]*",
  // Right-recursive, as xgrammar's own JSON grammar: a starred alternation costs ~50 ms a token to mask.
  j_str: '"\\"" j_str_rest',
  j_str_rest: '"\\"" | [^"\\\\\\u0000-\\u001f] j_str_rest | "\\\\" j_escape j_str_rest',
  j_char: '[^"\\\\\\u0000-\\u001f] | "\\\\" j_escape',
  j_escape: '["\\\\/bfnrt] | "u" [0-9a-fA-F] [0-9a-fA-F] [0-9a-fA-F] [0-9a-fA-F]',
  // At most 16 integer digits and a two-digit exponent: never Infinity once parsed.
  j_number: '"-"? ("0" | [1-9] j_digits15) ("." [0-9] j_more_digits)? ([eE] [+\\-]? [0-9] [0-9]?)?',
  j_integer: '"-"? ("0" | [1-9] j_digits15)',
  j_digits15: '"" | [0-9] [0-9]? [0-9]? [0-9]? [0-9]? [0-9]? [0-9]? [0-9]? [0-9]? [0-9]? [0-9]? [0-9]? [0-9]? [0-9]? [0-9]?',
  j_more_digits: '"" | [0-9] j_more_digits',
  j_boolean: '"true" | "false"',
  j_null: '"null"',
  j_any: "j_str | j_number | j_boolean | j_null | j_any_object | j_any_array",
  j_any_object: '"{" j_ws (j_str j_ws ":" j_ws j_any j_any_members j_ws)? "}"',
  j_any_members: '"" | j_ws "," j_ws j_str j_ws ":" j_ws j_any j_any_members',
  j_any_array: '"[" j_ws (j_any j_any_items j_ws)? "]"',
  j_any_items: '"" | j_ws "," j_ws j_any j_any_items',
};

/**
 * The planner's readings of the repeating rules: the same languages, as
 * quantifiers its reader (budget/parse-ebnf.ts) makes left-recursive. An
 * Earley parser completes a right-recursive rule along its whole length at
 * each character (quadratic in a long string); xgrammar wants them
 * right-recursive.
 */
const PLANNER_RULES: Record<string, string> = {
  j_str: '"\\"" j_char* "\\""',
  j_str_rest: 'j_char* "\\""',
  j_more_digits: "[0-9]*",
  j_any_members: '(j_ws "," j_ws j_str j_ws ":" j_ws j_any)*',
  j_any_items: '(j_ws "," j_ws j_any)*',
};

/** A path under `path` (paths read `properties/a/items`, no leading slash). */
const at = (path: string, part: string) => (path ? `${path}/${part}` : part);

/** A non-negative integer keyword's value (undefined when absent or not one). */
export function countKeyword(schema: Schema, key: string): number | undefined {
  const value = schema[key];
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? Math.floor(value) : undefined;
}

export interface JsonValueRulesOptions {
  flavor: GrammarFlavor;
  /** The tool's whole input schema: references resolve against it. */
  root: Schema;
  /** Every rule name this tool adds starts with it. */
  prefix: string;
  /** The grammar's rules, shared by all tools (by name). */
  rules: Map<string, string>;
  /** Told each keyword that is not enforced, with where it is. */
  unenforced: (keyword: string, path: string) => void;
  /** A string schema's own rule (a `pattern` or `format` xgrammar wrote), when there is one. */
  stringRule?: (schema: Schema, path: string) => string | undefined;
  /** What ends the value for the format's parser when written raw in a string (`</tool_call>` in a Hermes call, `</parameter>` in a Qwen3.5 value). */
  closer?: string;
}

/**
 * Our own JSON Schema to EBNF (xgrammar's dialect) for JSON values: any JSON
 * whitespace between tokens (bounds/ caps each run), listed properties in
 * the schema's order (required ones always, optional ones maybe), unlisted
 * ones anywhere among them where the schema admits them, exact integer and number ranges (number-range-rules.ts),
 * enums, consts, nested objects and arrays, `anyOf` / `oneOf` as unions,
 * local `$ref`s (recursive ones too). Every keyword it does not enforce is
 * reported, never silently dropped.
 */
export class JsonValueRules {
  readonly #options: JsonValueRulesOptions;
  readonly #named = new Map<Schema, string>();
  #count = 0;

  constructor(options: JsonValueRulesOptions) {
    this.#options = options;
    const base = options.flavor === "planner" ? { ...BASE_RULES, ...PLANNER_RULES } : BASE_RULES;
    for (const [name, body] of Object.entries(base)) if (!options.rules.has(name)) options.rules.set(name, body);
  }

  #rule(body: string): string {
    const name = `${this.#options.prefix}${this.#count++}`;
    this.#options.rules.set(name, body);
    return name;
  }

  /** A rule for values valid against `value` (a schema), at `path` (for warnings); a `false` schema is reported and read as `{}`. */
  value(value: unknown, path: string): string {
    const schema = asSchema(value);
    if (!schema) {
      this.#options.unenforced("false", path);
      return "j_any";
    }
    // Not a rule of its own: a fresh `{}` (an array's absent `items`) would be named anew at each level, without end.
    if (isUnconstrained(schema)) return "j_any";
    const known = this.#named.get(schema);
    if (known) return known;
    // Named before it is built, so a recursive reference finds it.
    const name = `${this.#options.prefix}${this.#count++}`;
    this.#named.set(schema, name);
    this.#options.rules.set(name, this.#body(schema, path));
    return name;
  }

  #body(raw: Schema, path: string): string {
    const schema = resolveSchema(raw, this.#options.root);
    if (!schema) {
      this.#options.unenforced("$ref", path);
      return "j_any";
    }
    for (const keyword of unenforcedKeywords(schema)) this.#options.unenforced(keyword, path);
    if (Array.isArray(schema.allOf)) this.#options.unenforced("allOf", path);
    if (Array.isArray(schema.enum) || "const" in schema) {
      const members = Array.isArray(schema.enum) ? schema.enum : [schema.const];
      const types = typesOf(schema);
      const allowed = members.filter((member) => types.includes(jsonTypeOf(member)) || (jsonTypeOf(member) === "integer" && types.includes("number")));
      // Members of another type than the schema's would never validate; a schema with none left is its author's to fix.
      return [...new Set((allowed.length ? allowed : members).flatMap((member) => literalsOf(member, this.#options.closer)))].map(ebnfLiteral).join(" | ");
    }
    const alternatives = alternativesOf(schema);
    if (alternatives) {
      if (Array.isArray(schema.oneOf) && overlapping(alternatives)) this.#options.unenforced("oneOf", path);
      const key = Array.isArray(schema.anyOf) ? "anyOf" : "oneOf";
      return alternatives.map((alternative, index) => this.value(alternative, at(path, `${key}/${index}`))).join(" | ");
    }
    return typesOf(schema)
      .filter((type) => !(type === "integer" && typesOf(schema).includes("number")))
      .map((type) => this.#typed(schema, type, path))
      .join(" | ");
  }

  #typed(schema: Schema, type: JsonType, path: string): string {
    switch (type) {
      case "string":
        return this.#options.stringRule?.(schema, path) ?? this.#string(schema);
      case "integer":
      case "number": {
        const range = numberRange(schema, type === "integer");
        if (range.low === undefined && range.high === undefined) return type === "integer" ? "j_integer" : "j_number";
        const start = numberRangeRules(this.#options.rules, `${this.#options.prefix}${this.#count++}_`, range);
        if (!start) this.#options.unenforced(type === "integer" ? "minimum" : "maximum", path);
        return start ?? (type === "integer" ? "j_integer" : "j_number");
      }
      case "boolean":
        return "j_boolean";
      case "null":
        return "j_null";
      case "object":
        return this.#object(schema, path);
      case "array":
        return this.#array(schema, path);
    }
  }

  /** Zero or more of `sequence`: a right-recursive rule for xgrammar, a quantifier for the planner (see PLANNER_RULES). */
  #repeat(sequence: string): string {
    if (this.#options.flavor === "planner") return `(${sequence})*`;
    const name = `${this.#options.prefix}${this.#count++}`;
    this.#options.rules.set(name, `"" | ${sequence} ${name}`);
    return name;
  }

  #string(schema: Schema): string {
    const minimum = countKeyword(schema, "minLength") ?? 0;
    if (this.#options.flavor === "xgrammar" || minimum === 0) return "j_str";
    // The planner's shortest completion must reach minLength; the bounds count it for xgrammar.
    return this.#rule(`"\\"" ${"j_char ".repeat(minimum)}j_str_rest`);
  }

  /**
   * An object as JSON Schema has it: its listed properties in the schema's
   * order (required ones always), and, unless `additionalProperties` is
   * `false` with no `patternProperties`, unlisted members anywhere among them
   * (any key but a listed one: unlisted-key-rules.ts), each value held to
   * `additionalProperties` (absent or `true`: any value) or, where
   * `patternProperties` is given, to any of it and them (which pattern a key
   * matches is not told apart: reported, and admitted, never cut).
   */
  #object(schema: Schema, path: string): string {
    const properties = asSchema(schema.properties) ?? {};
    const required = new Set(Array.isArray(schema.required) ? schema.required.filter((key): key is string => typeof key === "string") : []);
    const entries = Object.entries(properties).filter(([, child]) => asSchema(child) !== undefined);
    for (const key of required) if (!Object.hasOwn(properties, key)) entries.push([key, {}]);
    const extra = this.#unlistedMember(schema, [...Object.keys(properties), ...required], path);
    const comma = 'j_ws "," j_ws ';
    let tail: string | undefined;
    // rest(i, first): the members from the i-th listed one on; `first`: no member written yet (no comma before the next).
    const rest = new Map<string, string>();
    const restRule = (index: number, first: boolean): string => {
      if (index === entries.length && !extra) return '""';
      const id = `${index}${first ? "f" : "n"}`;
      const cached = rest.get(id);
      if (cached) return cached;
      const name = `${this.#options.prefix}${this.#count++}`;
      rest.set(id, name);
      if (index === entries.length) {
        tail ??= this.#repeat(`${comma}${extra}`);
        this.#options.rules.set(name, first ? `"" | ${extra} ${tail}` : tail);
        return name;
      }
      const [key, child] = entries[index]!;
      const member = `${ebnfLiteral(JSON.stringify(key))} j_ws ":" j_ws ${this.value(child, at(path, `properties/${key}`))}`;
      const alternatives = [`${first ? "" : comma}${member} ${restRule(index + 1, false)}`];
      if (!required.has(key)) alternatives.push(restRule(index + 1, first));
      if (extra) alternatives.push(`${first ? "" : comma}${extra} ${restRule(index, false)}`);
      this.#options.rules.set(name, alternatives.join(" | "));
      return name;
    };
    return `"{" j_ws ${restRule(0, true)} j_ws "}"`;
  }

  /** One unlisted member (`"KEY": VALUE`) of an object of `schema`, or undefined where the schema admits none. */
  #unlistedMember(schema: Schema, listed: string[], path: string): string | undefined {
    const patterns = Object.entries(asSchema(schema.patternProperties) ?? {});
    const values: [unknown, string][] = patterns.map(([pattern, child]) => [child, at(path, `patternProperties/${pattern}`)]);
    if (schema.additionalProperties !== false) values.push([schema.additionalProperties ?? {}, at(path, "additionalProperties")]);
    const admitted = values.filter(([child]) => asSchema(child) !== undefined);
    if (!admitted.length) return undefined;
    const rules = [...new Set(admitted.map(([child, where]) => this.value(child, where)))];
    const value = rules.includes("j_any") ? "j_any" : rules.length === 1 ? rules[0]! : this.#rule(rules.join(" | "));
    const key = unlistedKeyRule({ listed, syntax: "json", flavor: this.#options.flavor, rules: this.#options.rules, name: (body) => this.#rule(body) });
    return this.#rule(`"\\"" ${key} j_ws ":" j_ws ${value}`);
  }

  #array(schema: Schema, path: string): string {
    if (Array.isArray(schema.prefixItems)) return this.#tuple(schema, schema.prefixItems, path);
    if (schema.items === false) return '"[" j_ws "]"';
    const items = this.value(schema.items === undefined ? {} : schema.items, at(path, "items"));
    const more = this.#repeat(`j_ws "," j_ws ${items}`);
    const minimum = this.#options.flavor === "planner" ? (countKeyword(schema, "minItems") ?? 0) : 0;
    if (minimum === 0) return `"[" j_ws (${items} ${more} j_ws)? "]"`;
    return `"[" j_ws ${items} ${'j_ws "," j_ws '.concat(items, " ").repeat(minimum - 1)}${more} j_ws "]"`;
  }
  /**
   * An array with `prefixItems`: its first items each held to their own
   * schema (any prefix of them may be written), the rest to `items` (none
   * where it is `false`). Counts are left to bounds/ (the planner's
   * shortest end may close it short of `minItems`, which bounds/ then holds).
   */
  #tuple(schema: Schema, prefixItems: unknown[], path: string): string {
    // A `false` prefix schema admits no item there: the array ends before it.
    const end = prefixItems.findIndex((item) => asSchema(item) === undefined);
    const prefix = (end === -1 ? prefixItems : prefixItems.slice(0, end)).map((item, index) => this.value(item, at(path, `prefixItems/${index}`)));
    const rest = end !== -1 || schema.items === false ? undefined : this.value(schema.items ?? {}, at(path, "items"));
    // after(i): what may follow the i-th item.
    let after = rest ? this.#repeat(`j_ws "," j_ws ${rest}`) : '""';
    for (let index = prefix.length - 1; index >= 1; index--) after = this.#rule(`"" | j_ws "," j_ws ${prefix[index]} ${after}`);
    const first = prefix[0] ?? rest;
    if (!first) return '"[" j_ws "]"';
    return `"[" j_ws (${first} ${after} j_ws)? "]"`;
  }
}

/**
 * How a value is written in JSON: compact, with Python's `", "` / `": "`, and
 * ASCII-escaped (`json.dumps`'s default); each with a `</` in a string as
 * it is and as `<\/` (the same string to JSON). The raw form admits what a
 * template writes (`"<b>bold</b>"` in a Qwen3.5 JSON value), but never one
 * holding `closer`: the bounds refuse a closer only at its last byte
 * (bounds/json-string-frame.ts), too late for a literal the grammar has
 * already chosen, so such a member is written `<\/` only.
 */
export function literalsOf(value: unknown, closer?: string): string[] {
  const safe = (text: string) => text.replace(/<\//g, "<\\/");
  const ascii = (text: string) => text.replace(/[\u007f-\uffff]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`);
  const forms = [JSON.stringify(value), toPythonStyleJson(value)].flatMap((form) => [form, ascii(form)]);
  return [...new Set([...forms.map(safe), ...forms.filter((form) => !closer || !form.includes(closer))])];
}

/** Whether two alternatives could accept the same value (then `oneOf` is only enforced as `anyOf`). */
function overlapping(alternatives: Schema[]): boolean {
  const seen = new Set<string>();
  for (const alternative of alternatives) {
    for (const type of new Set(typesOf(alternative).map((type) => (type === "integer" ? "number" : type)))) {
      if (seen.has(type)) return true;
      seen.add(type);
    }
  }
  return false;
}
