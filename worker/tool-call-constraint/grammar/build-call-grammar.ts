import type { ToolCallGrammar } from "../../../models/model-format.js";
import { countKeyword, JsonValueRules, type GrammarFlavor } from "./json-value-rules.js";
import { rawEnumRule, rawTextRule } from "./raw-value-rules.js";
import { isNullable, readAlternative, readsAsLooseText, readsAsText } from "./reads-as-text.js";
import { ebnfLiteral } from "./rename-ebnf-rules.js";
import { asSchema, isUnconstrained, resolveSchema, type Schema } from "./schema-node.js";
import { unlistedKeyRule } from "./unlisted-key-rules.js";

/** The grammar of one tool call's body, in both readings, and what it does not enforce. */
export interface CallGrammar {
  /**
   * EBNF (xgrammar's dialect, start rule `root`) for the text AFTER the
   * format's `callOpen` up to and including its `callClose`.
   */
  ebnf: string;
  /** The same language for the completion planner (minimum lengths and counts written out, no TagDispatch). */
  plannerEbnf: string;
  /** One line per tool whose schema has keywords that are not enforced (or that is left out): the tool, the keywords, where. */
  warnings: string[];
}

/** Names the Qwen3.5 parser refuses (`NAME_REJECT` in models/qwen35-call-reader.ts); Hermes JSON takes any name. */
const XML_NAME_REJECT = /[{}<>"'\s]/;

/** The offered tools a call can name: each name once, none empty, none the format cannot write. */
export function callableTools(grammar: Pick<ToolCallGrammar, "syntax" | "tools">, warnings: string[] = []): ToolCallGrammar["tools"] {
  const seen = new Set<string>();
  return grammar.tools.filter((tool) => {
    if (seen.has(tool.name) || tool.name === "") return false;
    seen.add(tool.name);
    if (grammar.syntax === "qwen-xml" && XML_NAME_REJECT.test(tool.name)) {
      warnings.push(`Tool "${tool.name}": its name cannot be written in a Qwen3.5 call (no spaces, quotes, braces or angle brackets); it is left out of the constraint.`);
      return false;
    }
    return true;
  });
}

/** A tool's parameters as a Qwen3.5 call writes them: its schema's properties (none whose key holds a `>`), which are required. */
export function xmlParameters(schema: Schema): { key: string; schema: Schema; required: boolean }[] {
  const root = resolveSchema(schema, schema) ?? schema;
  const properties = asSchema(root.properties) ?? {};
  const required = new Set(Array.isArray(root.required) ? root.required : []);
  return Object.entries(properties).flatMap(([key, value]) => {
    const parameter = asSchema(value);
    return parameter && !key.includes(">") ? [{ key, schema: parameter, required: required.has(key) }] : [];
  });
}

/** Keywords that hold only values of another type than string: a string passes them whatever they say. */
const NOT_FOR_STRINGS = new Set(["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "items", "prefixItems", "minItems", "maxItems", "uniqueItems", "contains", "minContains", "maxContains", "properties", "required", "additionalProperties", "patternProperties", "propertyNames", "minProperties", "maxProperties", "dependentRequired"]);

/** Whether every string is valid against `value` (a schema): the only values an unlisted Qwen3.5 parameter can carry. */
function admitsEveryString(value: unknown, root: Schema): boolean {
  const schema = asSchema(value) && resolveSchema(asSchema(value)!, root);
  if (!schema) return false;
  if (isUnconstrained(schema)) return true;
  const types = Array.isArray(schema.type) ? schema.type : typeof schema.type === "string" ? [schema.type] : ["string"];
  return types.includes("string") && Object.keys(schema).every((key) => key === "type" || NOT_FOR_STRINGS.has(key) || isUnconstrained({ [key]: schema[key] }));
}

/**
 * The schema an unlisted parameter's text is held to, where a Qwen3.5 call
 * of a tool with this input schema may write one, as its first (undefined:
 * it may not). The parser (vLLM's `qwen3_coder`,
 * models/qwen35-value-scan.ts) reads an unlisted parameter's value as text
 * (a string, whatever it holds), and ends a value only at a `</parameter>`
 * followed by a listed key's tag, `</function>` or `</tool_call>`: an
 * unlisted tag after a value is text of that value. So the one place an
 * unlisted parameter is read as itself is first, alone, and only where the
 * schema admits strings as its value (`additionalProperties` absent,
 * `true`, or a string schema with at most length bounds; or a
 * `patternProperties` schema that admits any string, the pattern not
 * checked). Anything more (two unlisted keys, a
 * number) would change the call's meaning, so the grammar admits no more.
 */
export function unlistedParameterSchema(schema: Schema): Schema | undefined {
  const root = resolveSchema(schema, schema) ?? schema;
  const additional = asSchema(root.additionalProperties);
  const resolved = additional && resolveSchema(additional, schema);
  // A string schema with length bounds only: held to them (bounds/ counts the text as for a listed one).
  if (!root.patternProperties && resolved && resolved.type === "string" && Object.keys(resolved).every((key) => key === "type" || key === "minLength" || key === "maxLength" || isUnconstrained({ [key]: resolved[key] }))) return resolved;
  const values = [...Object.values(asSchema(root.patternProperties) ?? {}), ...(root.additionalProperties === false ? [] : [root.additionalProperties ?? {}])];
  return values.some((value) => admitsEveryString(value, schema)) ? { type: "string" } : undefined;
}

class ToolWarnings {
  readonly #found: string[] = [];
  add(keyword: string, path: string) {
    const line = `"${keyword}"${path ? ` (at ${path})` : ""}`;
    if (!this.#found.includes(line)) this.#found.push(line);
  }
  line(tool: string): string | undefined {
    if (!this.#found.length) return undefined;
    return `Tool "${tool}": its input schema's ${this.#found.join(", ")} cannot be enforced while decoding; the rest of it is, and the tool's own validation still checks all of it.`;
  }
}

/** `{"name": "NAME", "arguments": ARGS}` in either order (or the name alone when no argument is required), any JSON whitespace. */
function hermesTool(rules: Map<string, string>, flavor: GrammarFlavor, tool: ToolCallGrammar["tools"][number], prefix: string, warnings: ToolWarnings, callClose: string): string {
  const values = new JsonValueRules({ flavor, root: tool.inputSchema, prefix: `${prefix}a`, rules, unenforced: (keyword, path) => warnings.add(keyword, path), closer: callClose });
  const schema = resolveSchema(tool.inputSchema, tool.inputSchema) ?? {};
  const args = values.value({ type: "object", ...schema }, "");
  const name = `${ebnfLiteral('"name"')} j_ws ":" j_ws ${ebnfLiteral(JSON.stringify(tool.name))}`;
  const argsMember = `${ebnfLiteral('"arguments"')} j_ws ":" j_ws ${args}`;
  // The name alone (no argument required) as an optional tail, not a third alternative: xgrammar 0.1.27
  // accepts `{"arguments": {}, "name": "x", "arguments": …` from `A "," B | B "," A | A` (see FACTS in the README).
  const required = Array.isArray(schema.required) && schema.required.length > 0;
  const nameFirst = required ? `${name} j_ws "," j_ws ${argsMember}` : `${name} (j_ws "," j_ws ${argsMember})?`;
  rules.set(`${prefix}call`, `"{" j_ws (${nameFirst} | ${argsMember} j_ws "," j_ws ${name}) j_ws "}"`);
  return `${prefix}call`;
}

/** One parameter's value: raw text (a string enum: one of its members), else JSON (models/qwen35-parameter-value.ts reads it so). */
function xmlValue(rules: Map<string, string>, flavor: GrammarFlavor, values: JsonValueRules, schema: Schema, root: Schema, path: string, warnings: ToolWarnings): string {
  const resolved = resolveSchema(schema, root) ?? {};
  if (readsAsText(resolved)) {
    const text = readAlternative(resolved);
    const members = Array.isArray(text.enum) ? text.enum.filter((member): member is string => typeof member === "string") : undefined;
    if (members?.length) {
      if (members.some((member) => member.includes("</parameter>"))) warnings.add("enum", `${path} (a member holding </parameter> cannot be written in a Qwen3.5 value)`);
      if (members.some((member) => !member.includes("</parameter>"))) return rawEnumRule(members);
    }
    for (const keyword of ["pattern", "format"]) if (keyword in text) warnings.add(keyword, path);
    return rawTextRule(rules, flavor, countKeyword(text, "minLength") ?? 0);
  }
  if (readsAsLooseText(resolved)) return rawTextRule(rules, flavor, 0);
  // The parser types the value by its first non-null type (and reads null / None as null when nullable).
  // Held to the first non-null alternative: stricter than a union, never looser.
  const typed = readAlternative(resolved);
  const nullable = isNullable(resolved);
  const json = values.value(typed, path);
  const booleans = typed.type === "boolean" ? ' | "True" | "False"' : "";
  const nulls = nullable ? ' | "null" | "None"' : "";
  return `j_ws (${json}${booleans}${nulls}) j_ws ${ebnfLiteral("</parameter>")}`;
}

/** `<function=NAME>`, its `<parameter=KEY>VALUE</parameter>` in schema order (required ones always; one unlisted text parameter first where {@link unlistedParameterSchema}), `</function>`. */
function xmlTool(rules: Map<string, string>, flavor: GrammarFlavor, tool: ToolCallGrammar["tools"][number], prefix: string, warnings: ToolWarnings): string {
  const values = new JsonValueRules({ flavor, root: tool.inputSchema, prefix: `${prefix}v`, rules, unenforced: (keyword, path) => warnings.add(keyword, path), closer: "</parameter>" });
  const parameters = xmlParameters(tool.inputSchema);
  const sequence = parameters.map(({ key, schema, required }, index) => {
    const name = `${prefix}p${index}`;
    rules.set(name, `j_ws ${ebnfLiteral(`<parameter=${key}>`)} ${xmlValue(rules, flavor, values, schema, tool.inputSchema, `properties/${key}`, warnings)}`);
    return required ? name : `${name}?`;
  });
  const unlisted = unlistedParameterSchema(tool.inputSchema);
  if (unlisted) {
    // Any key but a listed one (a `>` ends the key for the parser), its value text.
    const root = resolveSchema(tool.inputSchema, tool.inputSchema) ?? tool.inputSchema;
    const listed = [...Object.keys(asSchema(root.properties) ?? {}), ...(Array.isArray(root.required) ? root.required.filter((key): key is string => typeof key === "string") : [])];
    let count = 0;
    const key = unlistedKeyRule({ listed, syntax: "xml", flavor, rules, name: (body) => {
      const name = `${prefix}k${count++}`;
      rules.set(name, body);
      return name;
    } });
    rules.set(`${prefix}u`, `j_ws ${ebnfLiteral("<parameter=")} ${key} ${rawTextRule(rules, flavor, countKeyword(unlisted, "minLength") ?? 0)}`);
    sequence.unshift(`${prefix}u?`);
  }
  // `</function>` may be left out before `</tool_call>` (the parser ends the call at either).
  rules.set(`${prefix}call`, `${ebnfLiteral(`${tool.name}>`)}${sequence.length ? ` ${sequence.join(" ")}` : ""} j_ws (${ebnfLiteral("</function>")} j_ws)?`);
  return `${prefix}call`;
}

function build(grammar: ToolCallGrammar, flavor: GrammarFlavor, warningLines: string[]): string {
  const rules = new Map<string, string>();
  const alternatives = callableTools(grammar, flavor === "xgrammar" ? warningLines : []).map((tool, index) => {
    const warnings = new ToolWarnings();
    const call = grammar.syntax === "hermes-json" ? hermesTool(rules, flavor, tool, `t${index}_`, warnings, grammar.callClose) : xmlTool(rules, flavor, tool, `t${index}_`, warnings);
    const line = warnings.line(tool.name);
    if (line && flavor === "xgrammar") warningLines.push(line);
    return call;
  });
  if (!alternatives.length) throw new TypeError("buildCallGrammar needs at least one tool with a usable name: pass the offered tools, or do not constrain a generation that offers none.");
  const open = grammar.syntax === "qwen-xml" ? ` ${ebnfLiteral("<function=")}` : "";
  const root = `root ::= j_ws${open} (${alternatives.join(" | ")}) j_ws ${ebnfLiteral(grammar.callClose)}`;
  return [root, ...[...rules].map(([name, body]) => `${name} ::= ${body}`)].join("\n");
}

/**
 * The EBNF of one tool call in `grammar`'s syntax, for a decoder to constrain
 * with (xgrammar compiles it; web-llm gets it as a structural tag's
 * grammar): a name from the offered tools and arguments valid against that
 * tool's JSON Schema, in any layout the format's parser reads the same:
 *
 * - `hermes-json`: `{"name": "NAME", "arguments": ARGS}` or with the two
 *   keys the other way round, JSON whitespace anywhere JSON allows it
 *   (newlines after `<tool_call>` and before `</tool_call>` included), the
 *   arguments' properties in the schema's order;
 * - `qwen-xml`: `<function=NAME>` + `<parameter=KEY>VALUE</parameter>` per
 *   parameter in the schema's order (required ones always) + `</function>`,
 *   whitespace between tags; a value the parser reads as text is raw text
 *   (`<` included), a string enum's raw members, any other JSON.
 *
 * What EBNF alone cannot say cheaply is left to bounds/ (string lengths,
 * item counts, whitespace runs, a closer inside a value): the xgrammar
 * reading unrolls nothing, so a tool set compiles in milliseconds. A keyword
 * that is enforced by neither is named in `warnings`. Throws a `TypeError`
 * when no tool can be called.
 */
export function buildCallGrammar(grammar: ToolCallGrammar): CallGrammar {
  const warnings: string[] = [];
  const ebnf = build(grammar, "xgrammar", warnings);
  return { ebnf, plannerEbnf: build(grammar, "planner", []), warnings };
}
