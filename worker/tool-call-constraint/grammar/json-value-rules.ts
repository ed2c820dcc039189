import { toPythonStyleJson } from "../../../models/python-style-json.js";
import { numberRange, numberRangeRules } from "./number-range-rules.js";
import { ebnfLiteral } from "./rename-ebnf-rules.js";
import { alternativesOf, asSchema, jsonTypeOf, resolveSchema, typesOf, unenforcedKeywords, type JsonType, type Schema } from "./schema-node.js";

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
}

/**
 * Our own JSON Schema to EBNF (xgrammar's dialect) for JSON values: any JSON
 * whitespace between tokens (bounds/ caps each run), properties in the
 * schema's order (required ones always, optional ones maybe; undeclared ones
 * never), exact integer and number ranges (number-range-rules.ts),
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
      return [...new Set((allowed.length ? allowed : members).flatMap(literalsOf))].map(ebnfLiteral).join(" | ");
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

  #object(schema: Schema, path: string): string {
    const properties = asSchema(schema.properties);
    const additional = schema.additionalProperties;
    if (!properties) {
      if (additional === false) return '"{" j_ws "}"';
      const members = asSchema(additional);
      if (!members || Object.keys(members).length === 0) return "j_any_object";
      const valueRule = this.value(members, at(path, "additionalProperties"));
      const more = this.#repeat(`j_ws "," j_ws j_str j_ws ":" j_ws ${valueRule}`);
      return `"{" j_ws (j_str j_ws ":" j_ws ${valueRule} ${more} j_ws)? "}"`;
    }
    const required = new Set(Array.isArray(schema.required) ? schema.required.filter((key): key is string => typeof key === "string") : []);
    const entries = Object.entries(properties).filter(([, child]) => asSchema(child) !== undefined);
    for (const key of required) if (!entries.some(([name]) => name === key)) entries.push([key, {}]);
    // rest(i, first): the members from the i-th on; `first`: no member written yet (no comma before the next).
    const rest = new Map<string, string>();
    const restRule = (index: number, first: boolean): string => {
      if (index === entries.length) return '""';
      const id = `${index}${first ? "f" : "n"}`;
      const cached = rest.get(id);
      if (cached) return cached;
      const name = `${this.#options.prefix}${this.#count++}`;
      rest.set(id, name);
      const [key, child] = entries[index]!;
      const member = `${ebnfLiteral(JSON.stringify(key))} j_ws ":" j_ws ${this.value(child, at(path, `properties/${key}`))}`;
      const written = `${first ? "" : 'j_ws "," j_ws '}${member} ${restRule(index + 1, false)}`;
      this.#options.rules.set(name, required.has(key) ? written : `${written} | ${restRule(index + 1, first)}`);
      return name;
    };
    return `"{" j_ws ${restRule(0, true)} j_ws "}"`;
  }

  #array(schema: Schema, path: string): string {
    if (Array.isArray(schema.prefixItems)) this.#options.unenforced("prefixItems", path);
    if (schema.items === false) return '"[" j_ws "]"';
    const items = this.value(schema.items === undefined ? {} : schema.items, at(path, "items"));
    const more = this.#repeat(`j_ws "," j_ws ${items}`);
    const minimum = this.#options.flavor === "planner" ? (countKeyword(schema, "minItems") ?? 0) : 0;
    if (minimum === 0) return `"[" j_ws (${items} ${more} j_ws)? "]"`;
    return `"[" j_ws ${items} ${'j_ws "," j_ws '.concat(items, " ").repeat(minimum - 1)}${more} j_ws "]"`;
  }
}

/**
 * How a value is written in JSON: compact, with Python's `", "` / `": "`, and
 * ASCII-escaped (`json.dumps`'s default). A `</` in a string is written `<\/`
 * (the same string to JSON): raw, a `</tool_call>` or `</parameter>` in it
 * would end the call or the value for the format's parser.
 */
export function literalsOf(value: unknown): string[] {
  const safe = (text: string) => text.replace(/<\//g, "<\\/");
  const ascii = (text: string) => text.replace(/[\u007f-\uffff]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`);
  const compact = safe(JSON.stringify(value));
  const spaced = safe(toPythonStyleJson(value));
  return [...new Set([compact, spaced, ascii(compact), ascii(spaced)])];
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
