import { modelFormat } from "../../models/model-formats.js";
import { formatXmlParameterValue } from "../../models/test-models/format-xml-tool-call.js";
import { toPythonStyleJson } from "../../models/python-style-json.js";
import { CompletionPlanner } from "../../worker/tool-call-constraint/budget/completion-planner.js";
import type { XGrammar } from "../../worker/tool-call-constraint/load-xgrammar.js";
import { ToolCallConstraint } from "../../worker/tool-call-constraint/tool-call-constraint.js";
import { byteLevelAlphabet, fromByteLevel } from "../../worker/tool-call-constraint/vocabulary/byte-level-alphabet.js";
import type { Vocabulary } from "../../worker/tool-call-constraint/vocabulary/tokenizer-vocabulary.js";
import { XGrammarTokenizer } from "../../worker/tool-call-constraint/vocabulary/xgrammar-tokenizer.js";
import { jsonSchemaValidator } from "./json-schema-validator.js";
import { randomInstance } from "./random-instance.js";
import { randomTools, seededRandom } from "./random-json-schema.js";

/** What a completeness run found. */
export interface AdmittedCalls {
  format: "qwen3" | "qwen3.5";
  /** Valid instances drawn (ajv-checked), and the calls written from them (one per layout). */
  instances: number;
  calls: number;
  /** Calls whose layout the format's parser itself does not read back as the instance (never a constraint's fault): by why. */
  unwritable: Record<string, number>;
  /** Calls the constraint is known to refuse, by why (README.md's "Constrained tool calls" names each): not run. */
  known: Record<string, number>;
  /** Calls the constraint ran and the parser read back, byte for byte, as the instance. */
  admitted: number;
  /** Calls the constraint refused (a token masked, the call left open, the planner lost). */
  refused: number;
  /** Up to eight of them: why, where, the text. */
  failures: string[];
}

type Tool = ReturnType<typeof randomTools>[number];

/** Whole tags and JSON punctuation as tokens beside the 256 bytes: a call is tokenized as a BPE would, more than a byte at a time. */
const PIECES = ["<tool_call>", "</tool_call>", "<function=", "</function>", "<parameter=", "</parameter>", '": "', '", "', '": ', ", ", '{"', '"}', "\n", "true", "null", "false", "name", "arguments"];

/** A byte-level vocabulary (the 256 bytes, then PIECES), as a tokenizer writes it. */
function toyVocabulary(): Vocabulary {
  const { toChar } = byteLevelAlphabet();
  const encoder = new TextEncoder();
  const encoded = [...toChar.slice(0, 256), ...PIECES.map((piece) => Array.from(encoder.encode(piece), (byte) => toChar[byte]).join(""))];
  return { vocabSize: encoded.length, encoded, stopIds: [], buildMs: 0 };
}

/** Greedy longest match over the text's bytes. */
function tokenize(text: string, vocabulary: Vocabulary): number[] {
  const { toChar } = byteLevelAlphabet();
  const chars = Array.from(new TextEncoder().encode(text), (byte) => toChar[byte]).join("");
  const ids: number[] = [];
  for (let at = 0; at < chars.length; ) {
    let best = -1;
    for (let id = 0; id < vocabulary.encoded.length; id++) {
      const token = vocabulary.encoded[id]!;
      if (token && chars.startsWith(token, at) && (best === -1 || token.length > vocabulary.encoded[best]!.length)) best = id;
    }
    ids.push(best);
    at += vocabulary.encoded[best]!.length;
  }
  return ids;
}

/** A JSON text as a model writes it in a Hermes call: `</` as `<\/`, so a `</tool_call>` in a string does not end the call. */
const safe = (json: string) => json.replace(/<\//g, "<\\/");

/** Every layout the format's parser reads, for one call. */
function layouts(format: "qwen3" | "qwen3.5", name: string, args: Record<string, unknown>): { layout: string; text: string }[] {
  if (format === "qwen3") {
    return [
      { layout: "python-spaced", text: `<tool_call>\n${safe(toPythonStyleJson({ name, arguments: args }))}\n</tool_call>` },
      { layout: "compact", text: `<tool_call>${safe(JSON.stringify({ name, arguments: args }))}</tool_call>` },
      { layout: "arguments first, indented", text: `<tool_call>\n${safe(JSON.stringify({ arguments: args, name }, null, 2))}\n</tool_call>` },
    ];
  }
  const parameters = Object.entries(args);
  return [
    { layout: "template", text: `<tool_call>\n<function=${name}>\n${parameters.map(([key, value]) => `<parameter=${key}>\n${formatXmlParameterValue(value)}\n</parameter>\n`).join("")}</function>\n</tool_call>` },
    { layout: "inline", text: `<tool_call><function=${name}>${parameters.map(([key, value]) => `<parameter=${key}>${formatXmlParameterValue(value)}</parameter>`).join("")}</function></tool_call>` },
  ];
}

/** The first call the format's parser reads in `text`, as JSON (undefined: none). */
function readBack(format: "qwen3" | "qwen3.5", tools: readonly Tool[], text: string): string | undefined {
  const parser = modelFormat(format).createParser({ tools, thinking: false });
  const call = [...parser.push(text), ...parser.end()].find((event) => event.type === "tool-call");
  return call?.type === "tool-call" ? JSON.stringify({ name: call.name, arguments: call.input }) : undefined;
}

const NULL_BEYOND_BOUNDS = "Qwen3.5 null for a nullable text parameter whose length bounds exclude the four letters";

/**
 * A known refusal: a nullable text parameter (`anyOf: [{type: "string",
 * maxLength: 2}, {type: "null"}]`) written `null`. bounds/ counts the text's
 * characters against the string's bounds, and `null` is read as null only
 * after the value ends: not told apart yet.
 */
function nullBeyondBounds(tool: Tool, args: Record<string, unknown>): boolean {
  const properties = (tool.inputSchema.properties ?? {}) as Record<string, Record<string, unknown>>;
  return Object.entries(args).some(([key, value]) => {
    const options = properties[key]?.anyOf as Record<string, unknown>[] | undefined;
    const text = options?.find((option) => option.type === "string");
    return value === null && !!text && ((typeof text.maxLength === "number" && text.maxLength < 4) || (typeof text.minLength === "number" && text.minLength > 4));
  });
}

/** Why the parser does not read a layout back as the instance, in a word (the README counts them). */
function unwritableBecause(format: "qwen3" | "qwen3.5", tool: Tool, args: Record<string, unknown>): string {
  if (format === "qwen3") return "other";
  const properties = (tool.inputSchema.properties ?? {}) as Record<string, unknown>;
  const undeclared = Object.keys(args).filter((key) => !(key in properties));
  if (undeclared.length > 1) return "two or more unlisted parameters (the second runs into the first's value)";
  if (undeclared.length === 1 && typeof args[undeclared[0]!] !== "string") return "an unlisted parameter that is not a string (read as text)";
  if (undeclared.length === 1 && Object.keys(args)[0] !== undeclared[0]) return "an unlisted parameter after a listed one (runs into its value)";
  return "a value the text reading changes (newlines at its ends, a type read as text)";
}

/**
 * Completeness, the other half of soundness (simulate-calls.ts): valid
 * instances of random loose schemas (random-instance.ts, independent of the
 * grammar; ajv checks each) are written in every layout the format's parser
 * reads, and each call runs token by token through a whole
 * {@link ToolCallConstraint} (xgrammar's mask, bounds/, UTF-8 shapes; the
 * budget's planner fed the same text): the token written must never be
 * masked, the call must close, and the parser must read back the instance,
 * byte for byte. A layout whose text the parser itself reads as something
 * else (vLLM's reading of Qwen3.5 XML, models/qwen35-value-scan.ts) is
 * counted apart, by why: no constraint could admit it.
 */
export async function admittedCalls(options: { xgrammar: XGrammar; format: "qwen3" | "qwen3.5"; toolSets: number; instancesPerTool: number; seed: number }): Promise<AdmittedCalls> {
  const { format } = options;
  const vocabulary = toyVocabulary();
  const table = await XGrammarTokenizer.create(options.xgrammar, vocabulary);
  const ajv = jsonSchemaValidator();
  const random = seededRandom(options.seed);
  const result: AdmittedCalls = { format, instances: 0, calls: 0, unwritable: {}, known: {}, admitted: 0, refused: 0, failures: [] };
  const fail = (why: string) => {
    result.refused += 1;
    if (result.failures.length < 8) result.failures.push(why);
  };
  const logits = new Float32Array(vocabulary.vocabSize);
  for (let set = 0; set < options.toolSets; set++) {
    const tools = randomTools(options.seed * 1000 + set, 2, { loose: true });
    const grammar = modelFormat(format).grammar(tools);
    const compiled = await table.compile(grammar);
    for (const tool of tools) {
      for (let draw = 0; draw < options.instancesPerTool; draw++) {
        const args = randomInstance(random, tool.inputSchema, tool.inputSchema) as Record<string, unknown>;
        if (!ajv.valid(tool.inputSchema, args)) continue;
        result.instances += 1;
        const expected = JSON.stringify({ name: tool.name, arguments: args });
        for (const { layout, text } of layouts(format, tool.name, args)) {
          result.calls += 1;
          if (readBack(format, tools, text) !== expected) {
            const why = unwritableBecause(format, tool, args);
            result.unwritable[why] = (result.unwritable[why] ?? 0) + 1;
            continue;
          }
          if (format === "qwen3.5" && nullBeyondBounds(tool, args)) {
            result.known[NULL_BEYOND_BOUNDS] = (result.known[NULL_BEYOND_BOUNDS] ?? 0) + 1;
            continue;
          }
          const ids = tokenize(text, vocabulary);
          const constraint = new ToolCallConstraint({
            grammar,
            texts: vocabulary.encoded,
            vocabulary: () => vocabulary,
            toolChoice: "required",
            thinking: false,
            maxNewTokens: ids.length + 1000,
            createMatcher: async () => options.xgrammar.GrammarMatcher.createGrammarMatcher(compiled.compiled, undefined, true),
            createPlanner: async () => compiled.planner,
          });
          let refusedAt = -1;
          for (let index = 0; index < ids.length; index++) {
            await constraint.prepare();
            logits.fill(0);
            constraint.apply(logits);
            if (logits[ids[index]!] === -Infinity) {
              refusedAt = index;
              break;
            }
            constraint.observe(ids[index]!);
          }
          await constraint.prepare();
          constraint.end();
          const body = text.slice(text.indexOf("<tool_call>") + "<tool_call>".length);
          const planned = compiled.planner ? new CompletionPlanner(compiled.planner).feed(body) : false;
          if (refusedAt !== -1) {
            const before = decodeIds(ids.slice(0, refusedAt), vocabulary);
            fail(`${layout}: refused after ${JSON.stringify(before.slice(-80))}, schema ${JSON.stringify(tool.inputSchema)}, call ${JSON.stringify(text)}`);
          } else if (constraint.completedCalls !== 1) fail(`${layout}: never closed: ${JSON.stringify(text)}`);
          else if (!planned) fail(`${layout}: the planner's grammar refused ${JSON.stringify(text)} (schema ${JSON.stringify(tool.inputSchema)})`);
          else result.admitted += 1;
        }
      }
    }
  }
  return result;
}

function decodeIds(ids: readonly number[], vocabulary: Vocabulary): string {
  return new TextDecoder().decode(Uint8Array.from(ids.flatMap((id) => [...fromByteLevel(vocabulary.encoded[id]!)])));
}
