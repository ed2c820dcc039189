import type { ResponseFormat } from "@mlc-ai/web-llm";
import type { ModelFormatId } from "../models/model-format-id.js";
import { modelFormat } from "../models/model-formats.js";
import type { GenerateRequest } from "./protocol.js";
import { buildCallGrammar, callableTools } from "./tool-call-constraint/grammar/build-call-grammar.js";

/**
 * The call opener's token id in each format's vocabulary (Qwen3: 151,669
 * tokens; Qwen3.5: 248,320): web-llm offers no tokenizer to look it up, and
 * `logit_bias` takes ids. research-qwen35.md lists Qwen3.5's.
 */
const CALL_OPEN_TOKEN: Record<ModelFormatId, number> = { qwen3: 151657, "qwen3.5": 248058 };

/** What a web-llm chat completion request gets so its tool calls are constrained. */
export interface WebLlmToolConstraint {
  /** An xgrammar structural tag: free text until the call opener, then the call grammar (`required`: a call first). */
  response_format?: ResponseFormat;
  /** `none`: the call opener's token banned. */
  logit_bias?: Record<string, number>;
  /** Tools held to syntax only, one line each (see `buildCallGrammar`). */
  warnings: string[];
}

/** Keywords that the transformers.js engine enforces outside the grammar (bounds/), so web-llm's xgrammar alone cannot. */
const BOUND_KEYWORDS = ["minLength", "maxLength", "minItems", "maxItems"];

/** Where `schema` uses a bound keyword (paths like `properties/q`). */
function boundKeywords(schema: unknown, path = "", found: string[] = [], seen = new Set<unknown>()): string[] {
  if (!schema || typeof schema !== "object" || seen.has(schema)) return found;
  seen.add(schema);
  for (const [key, value] of Object.entries(schema)) {
    if (BOUND_KEYWORDS.includes(key) && typeof value === "number") found.push(`"${key}"${path ? ` (at ${path})` : ""}`);
    else if (value && typeof value === "object") boundKeywords(value, path ? `${path}/${key}` : key, found, seen);
  }
  return found;
}

/**
 * The same constraint the transformers.js engine applies, through web-llm's
 * own grammar support (its bundled xgrammar): a structural tag whose
 * `triggered_tags` let text flow until the format's `callOpen`, then hold the
 * call to the runtime's grammar (`buildCallGrammar`: any layout the format's
 * parser reads, an offered tool's name, arguments valid against its schema),
 * not web-llm's tools API (Hermes models only) nor xgrammar's own
 * `qwen_xml_parameter` (it quotes string enums and lets whitespace run).
 * What the transformers.js engine enforces beside the grammar (string
 * lengths, item counts: tool-call-constraint/bounds/) web-llm cannot: each
 * tool whose schema uses one gets a warning line. `required` sets
 * `at_least_one` (a call first; with thinking on, as `auto`: a structural tag
 * cannot let a `<think>` block through first). `none` bans the opener token.
 * Nothing with `constrainToolCalls: false` or no tools.
 */
export async function webLlmToolConstraint(request: Pick<GenerateRequest, "tools" | "toolChoice" | "constrainToolCalls" | "enableThinking" | "model">): Promise<WebLlmToolConstraint> {
  const toolChoice = request.toolChoice ?? "auto";
  const formatId = request.model.format ?? "qwen3";
  if (request.constrainToolCalls === false) return { warnings: [] };
  if (toolChoice === "none") return { logit_bias: { [String(CALL_OPEN_TOKEN[formatId])]: -100 }, warnings: [] };
  if (!request.tools.length) return { warnings: [] };
  const grammar = modelFormat(formatId).grammar(request.tools);
  const { ebnf, warnings } = buildCallGrammar(grammar);
  for (const tool of callableTools(grammar)) {
    const bounds = boundKeywords(tool.inputSchema);
    if (bounds.length) warnings.push(`Tool "${tool.name}": its input schema's ${bounds.join(", ")} cannot be enforced while web-llm decodes; the tool's own validation still checks them.`);
  }
  const atLeastOne = toolChoice === "required" && !request.enableThinking;
  const structuralTag = {
    type: "structural_tag",
    format: {
      type: "triggered_tags",
      triggers: [grammar.callOpen],
      tags: [{ type: "tag", begin: grammar.callOpen, content: { type: "grammar", grammar: ebnf }, end: "" }],
      at_least_one: atLeastOne,
      stop_after_first: false,
    },
  };
  return { response_format: { type: "structural_tag", structural_tag: structuralTag } as ResponseFormat, warnings };
}
