import type { FormatParser } from "./model-format.js";
import type { ModelOutputEvent } from "./model-output-event.js";
import { Qwen35CallReader } from "./qwen35-call-reader.js";
import { QwenStreamReader } from "./qwen-stream-reader.js";

/** A tool as the parser needs it: its name and JSON Schema (parameter names and types). */
export interface Qwen35ParserTool {
  name: string;
  inputSchema: Record<string, unknown>;
}

/** Options for {@link Qwen35OutputParser}. */
export interface Qwen35ParserOptions {
  /** The offered tools: their schemas type the values and say which `<parameter=NAME>` is structural. */
  tools: readonly Qwen35ParserTool[];
  /**
   * Whether the prompt ended with an open `<think>` (thinking on): the output
   * then starts as reasoning, ended by `</think>`; a call written inside it
   * (a `<tool_call>` opening a `<function=`) is run, and the reasoning goes
   * on after it. Default false (the Small models' default).
   */
  thinking?: boolean;
}

/**
 * Qwen3.5's output as it streams (models/qwen-stream-reader.ts), with vLLM's
 * `qwen3_coder` semantics for its XML calls (models/qwen35-call-reader.ts):
 * `<tool_call>\n<function=NAME>\n<parameter=KEY>\nVALUE\n</parameter>\n…</function>\n</tool_call>`,
 * values typed by the tool's schema, tag look-alikes inside a value kept as
 * text, several calls, text before a call. A malformed call, or one the reply
 * cuts off, is a `tool-call-invalid` event: it never runs and is reported to
 * the model. Any split of the same output gives the same events.
 */
export class Qwen35OutputParser implements FormatParser {
  readonly #reader: QwenStreamReader;

  constructor(options: Qwen35ParserOptions) {
    const schemas = new Map(options.tools.map((tool) => [tool.name, ((tool.inputSchema as { properties?: unknown }).properties ?? {}) as Record<string, Record<string, unknown>>]));
    this.#reader = new QwenStreamReader({
      createCallReader: () => new Qwen35CallReader(schemas),
      callStart: "<function",
      thinking: options.thinking === true,
      trimBeforeCall: true,
    });
  }

  push(chunk: string): ModelOutputEvent[] {
    return this.#reader.push(chunk);
  }

  end(): ModelOutputEvent[] {
    return this.#reader.end();
  }
}
