import type { ToolCallGrammar } from "../../models/model-format.js";
import type { XGrammar } from "./load-xgrammar.js";
import { ebnfLiteral } from "./rename-ebnf-rules.js";
import { schemaRules, UnsupportedSchemaError } from "./json-schema-ebnf.js";
import { readsAsText } from "./reads-as-text.js";

type Schema = Record<string, unknown>;

/** The grammar of one tool call's body, and what could not be constrained. */
export interface CallGrammar {
  /**
   * EBNF (xgrammar's dialect, start rule `root`) for the text AFTER the
   * format's `callOpen` up to and including its `callClose`, in the format's
   * canonical layout (exactly what the model's chat template writes).
   */
  ebnf: string;
  /** One line per tool (or Qwen3.5 parameter) held to syntax only: the tool, the keyword, where. */
  warnings: string[];
}

/** Raw text of a Qwen3.5 string value: no `<`, so it cannot run into `</parameter>`. */
const RAW_CHARACTER = "[^<]";

function rawText(schema: Schema): string {
  const min = typeof schema.minLength === "number" ? Math.max(0, Math.floor(schema.minLength)) : 0;
  const max = typeof schema.maxLength === "number" ? Math.floor(schema.maxLength) : undefined;
  if (max !== undefined && max <= 64) return `${RAW_CHARACTER}{${min},${Math.max(min, max)}}`;
  return min > 0 ? `${RAW_CHARACTER}{${min}} ${RAW_CHARACTER}*` : `${RAW_CHARACTER}*`;
}

function warning(tool: string, keyword: string, path: string, fallback: string): string {
  return `Tool "${tool}": its input schema's "${keyword}"${path ? ` (at ${path})` : ""} cannot be enforced while decoding; ${fallback}`;
}

/** The `$defs` / `definitions` of a tool's schema, carried into each parameter's sub-schema so references resolve. */
function definitionsOf(schema: Schema): Schema {
  return Object.fromEntries(["$defs", "definitions"].filter((key) => key in schema).map((key) => [key, schema[key]]));
}

/** `{"name": "NAME", "arguments": ARGS}` for one tool (Qwen3's Hermes JSON). */
async function hermesTool(xgrammar: XGrammar, tool: ToolCallGrammar["tools"][number], prefix: string, warnings: string[]): Promise<string[]> {
  const head = ebnfLiteral(`{"name": ${JSON.stringify(tool.name)}, "arguments": `);
  let rules;
  try {
    // No raw `<` in strings (`\u003c` still can): `</tool_call>` inside a string would end the call for the parser.
    rules = await schemaRules(xgrammar, tool.inputSchema, `${prefix}a_`, { noAngle: true });
  } catch (error) {
    if (!(error instanceof UnsupportedSchemaError)) throw error;
    const { keyword, path } = error.unsupported;
    warnings.push(warning(tool.name, keyword, path, "its arguments are held to any JSON object."));
    rules = await schemaRules(xgrammar, { type: "object" }, `${prefix}a_`, { strict: false, noAngle: true });
  }
  return [`${prefix}call ::= ${head} ${rules.root} "}"`, rules.ebnf];
}

/** `<function=NAME>\n` and its `<parameter=KEY>\nVALUE\n</parameter>\n` lines (Qwen3.5's XML). */
async function xmlTool(xgrammar: XGrammar, tool: ToolCallGrammar["tools"][number], prefix: string, warnings: string[]): Promise<string[]> {
  const schema = tool.inputSchema as Schema;
  const properties = (schema.properties && typeof schema.properties === "object" ? schema.properties : {}) as Record<string, unknown>;
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((key): key is string => typeof key === "string") : []);
  const definitions = definitionsOf(schema);
  const rules: string[] = [];
  const sequence: string[] = [];
  let index = 0;
  for (const [key, raw] of Object.entries(properties)) {
    const parameter = (raw && typeof raw === "object" ? raw : {}) as Schema;
    const name = `${prefix}p${index++}`;
    let value: string;
    if (readsAsText(parameter)) {
      // The parser reads this value as raw text: a string enum as its raw members, else text without `<`.
      const members = Array.isArray(parameter.enum) ? parameter.enum.filter((member): member is string => typeof member === "string" && !member.includes("<")) : undefined;
      const unenforced = ["pattern", "format"].find((keyword) => keyword in parameter);
      if (unenforced && !members) warnings.push(warning(tool.name, unenforced, `properties/${key}`, "that parameter is held to text without '<'."));
      value = members && members.length ? `(${members.map(ebnfLiteral).join(" | ")})` : rawText(parameter);
    } else {
      try {
        const sub = await schemaRules(xgrammar, { ...definitions, ...parameter }, `${name}_`, { noAngle: true });
        rules.push(sub.ebnf);
        value = sub.root;
      } catch (error) {
        if (!(error instanceof UnsupportedSchemaError)) throw error;
        const { keyword, path } = error.unsupported;
        warnings.push(warning(tool.name, keyword, `properties/${key}${path ? `/${path}` : ""}`, "that parameter is held to text without '<'."));
        value = `${RAW_CHARACTER}*`;
      }
    }
    rules.push(`${name} ::= ${ebnfLiteral(`<parameter=${key}>\n`)} ${value} ${ebnfLiteral("\n</parameter>\n")}`);
    sequence.push(required.has(key) ? name : `${name}?`);
  }
  rules.unshift(`${prefix}call ::= ${ebnfLiteral(`<function=${tool.name}>\n`)}${sequence.length ? ` ${sequence.join(" ")}` : ""} ${ebnfLiteral("</function>")}`);
  return rules;
}

/** Names the Qwen3.5 parser refuses (`NAME_REJECT` in qwen35-output-parser.ts); Hermes JSON takes any name. */
const XML_NAME_REJECT = /[{}<>"'\s]/;

/**
 * The EBNF of one tool call in `grammar`'s syntax, for a decoder to constrain
 * with (xgrammar compiles it; the web-llm engine can pass it as a structural
 * tag's grammar): a name from the offered tools and arguments valid against
 * that tool's JSON Schema, in the format's canonical layout, nothing more.
 *
 * - `hermes-json`: `\n{"name": "NAME", "arguments": ARGS}\n</tool_call>`, ARGS
 *   compact JSON with `", "` / `": "` (Python's `json.dumps` spacing).
 * - `qwen-xml`: `\n<function=NAME>\n` + `<parameter=KEY>\nVALUE\n</parameter>\n`
 *   per parameter in the schema's property order (required ones always,
 *   optional ones maybe) + `</function>\n</tool_call>`; a value the parser
 *   reads as text (string types, string enums) is raw text without `<` (an
 *   enum: one of its members), any other is compact JSON whose strings hold no raw `<`.
 *
 * A schema xgrammar cannot express (a lookbehind `pattern`, …) is not an
 * error: that tool (for `qwen-xml`, that parameter) is held to syntax only
 * and `warnings` says so in one line naming the tool and the keyword.
 * Throws a `TypeError` when no tool is offered.
 */
export async function buildCallGrammar(grammar: ToolCallGrammar, xgrammar: XGrammar): Promise<CallGrammar> {
  const warnings: string[] = [];
  const seen = new Set<string>();
  const tools = grammar.tools.filter((tool) => {
    if (seen.has(tool.name) || tool.name === "") return false;
    seen.add(tool.name);
    if (grammar.syntax === "qwen-xml" && XML_NAME_REJECT.test(tool.name)) {
      warnings.push(`Tool "${tool.name}": its name cannot be written in a Qwen3.5 call (no spaces, quotes, braces or angle brackets); it is left out of the constraint.`);
      return false;
    }
    return true;
  });
  if (!tools.length) throw new TypeError("buildCallGrammar needs at least one tool with a usable name: pass the offered tools, or do not constrain a generation that offers none.");
  const rules: string[] = [];
  const alternatives: string[] = [];
  for (const [index, tool] of tools.entries()) {
    const prefix = `t${index}_`;
    alternatives.push(`${prefix}call`);
    rules.push(...(grammar.syntax === "hermes-json" ? await hermesTool(xgrammar, tool, prefix, warnings) : await xmlTool(xgrammar, tool, prefix, warnings)));
  }
  // Both layouts put the body between newlines: `<tool_call>\n…\n</tool_call>`.
  const root = `root ::= ${ebnfLiteral("\n")} (${alternatives.join(" | ")}) ${ebnfLiteral(`\n${grammar.callClose}`)}`;
  return { ebnf: [root, ...rules].join("\n"), warnings };
}
