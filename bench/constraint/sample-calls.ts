import { modelFormat } from "../../models/model-formats.js";
import type { GenerateRequest, ModelSource, RawEngineEvent } from "../../worker/protocol.js";
import type { TransformersEngine } from "../../worker/transformers-engine.js";
import { jsonSchemaValidator } from "./json-schema-validator.js";
import { randomTools } from "./random-json-schema.js";

/** What a validity run found, over `calls` generations. */
export interface CallFigures {
  calls: number;
  /** Generations with a call the format's parser read (no invalid call). */
  parsed: number;
  /** Parsed calls naming an offered tool. */
  knownName: number;
  /** Parsed calls whose input is valid against that tool's schema (ajv, JSON Schema 2020-12: not the runtime's own validator). */
  schemaValid: number;
  /** Calls the parser read whole (to the format's closer) within the token budget. */
  closed: number;
  /** Parsed calls naming a tool that was not offered. */
  unknownNames: number;
  outputTokens: number;
  /** Up to five failures, for the report. */
  failures: string[];
  /** Up to three texts of calls that did not close within the budget. */
  unclosed: string[];
}

export interface SampleCallsOptions {
  engine: TransformersEngine;
  model: ModelSource;
  /** Schemas (tool sets) and calls per tool set. */
  toolSets: number;
  callsPerSet: number;
  seed: number;
  constrain: boolean;
  maxNewTokens: number;
  toolChoice?: GenerateRequest["toolChoice"];
  toolsPerSet?: number;
  /** Issue 25's schema additions (default true). */
  extended?: boolean;
}

const ajv = jsonSchemaValidator();

/**
 * Samples tool calls at temperature 1 over seeded random tool schemas and
 * checks each with the model's own format parser (as the engine host reads
 * them in the worker, worker/step-format.ts) and ajv.
 */
export async function sampleCalls(options: SampleCallsOptions): Promise<CallFigures> {
  const figures: CallFigures = { calls: 0, parsed: 0, knownName: 0, schemaValid: 0, closed: 0, unknownNames: 0, outputTokens: 0, failures: [], unclosed: [] };
  const format = modelFormat(options.model.format);
  for (let set = 0; set < options.toolSets; set++) {
    const tools = randomTools(options.seed * 1000 + set, options.toolsPerSet ?? 3, { extended: options.extended ?? true });
    for (let call = 0; call < options.callsPerSet; call++) {
      const events: RawEngineEvent[] = [];
      // The call is all that is measured: once the parser has read it whole, the rest of the reply is not awaited.
      // (Not on the first `</tool_call>` in the text: a Qwen3.5 text value may hold one, models/qwen35-value-scan.ts.)
      const stop = new AbortController();
      const watcher = format.createParser({ tools, thinking: false });
      let closed = false;
      await options.engine.generate(
        {
          id: `s${set}-${call}`,
          model: options.model,
          conversationId: `sample-${set}-${call}`,
          messages: [{ role: "user", content: "Call one of the tools." }],
          tools,
          temperature: 1,
          maxNewTokens: options.maxNewTokens,
          toolChoice: options.toolChoice ?? "required",
          constrainToolCalls: options.constrain,
        },
        (event) => {
          events.push(event);
          if (event.type !== "text" || closed) return;
          closed = watcher.push(event.text).some((read) => read.type === "tool-call" || read.type === "tool-call-invalid");
          if (closed) stop.abort();
        },
        stop.signal,
      );
      const text = events.flatMap((event) => (event.type === "text" ? [event.text] : [])).join("");
      const usage = events.find((event) => event.type === "usage");
      if (usage?.type === "usage") figures.outputTokens += usage.usage.outputTokens;
      figures.calls += 1;
      if (closed) figures.closed += 1;
      else if (figures.unclosed.length < 3) figures.unclosed.push(text);
      const parser = format.createParser({ tools, thinking: false });
      const parsedEvents = [...parser.push(text), ...parser.end()];
      const invalid = parsedEvents.find((event) => event.type === "tool-call-invalid");
      const first = parsedEvents.find((event) => event.type === "tool-call");
      const fail = (why: string) => figures.failures.length < 5 && figures.failures.push(`${why}: ${JSON.stringify(text.slice(0, 300))}`);
      if (invalid || !first || first.type !== "tool-call") {
        fail(invalid?.type === "tool-call-invalid" ? `invalid (${invalid.error})` : "no call");
        continue;
      }
      figures.parsed += 1;
      const tool = tools.find((candidate) => candidate.name === first.name);
      if (!tool) {
        figures.unknownNames += 1;
        fail(`unknown name ${first.name}`);
        continue;
      }
      figures.knownName += 1;
      if (ajv.valid(tool.inputSchema, first.input)) figures.schemaValid += 1;
      else fail(`schema-invalid ${JSON.stringify(first.input)} (${ajv.errors()})`);
    }
  }
  return figures;
}

/** One line of figures. */
export function describeFigures(label: string, figures: CallFigures): string {
  const percent = (count: number) => `${((100 * count) / Math.max(1, figures.calls)).toFixed(1)}%`;
  return `${label}: ${figures.calls} calls, parsed ${percent(figures.parsed)}, schema-valid ${percent(figures.schemaValid)}, unknown names ${figures.unknownNames}, closed ${percent(figures.closed)}, ${(figures.outputTokens / Math.max(1, figures.calls)).toFixed(1)} tokens a call`;
}
