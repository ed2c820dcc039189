import type { FormatParser } from "./model-format.js";
import type { ModelOutputEvent } from "./model-output-event.js";
import { HermesCallReader } from "./hermes-call-reader.js";
import { QwenStreamReader } from "./qwen-stream-reader.js";

export type { ModelOutputEvent } from "./model-output-event.js";

/**
 * Qwen3's output as it streams (models/qwen-stream-reader.ts): `<think>…</think>`
 * reasoning, text, and Hermes calls `<tool_call>{"name": …, "arguments": {…}}</tool_call>`
 * (models/hermes-call-reader.ts). A tag split across chunks is held back
 * until it is whole; text right after a block loses its leading whitespace
 * (Qwen puts blank lines there). `end()` flushes: an unclosed `<think>` is
 * reasoning, an unclosed `<tool_call>` an invalid call (never run).
 */
export class QwenOutputParser implements FormatParser {
  readonly #reader = new QwenStreamReader({ createCallReader: () => new HermesCallReader(), callStart: "{" });

  push(chunk: string): ModelOutputEvent[] {
    return this.#reader.push(chunk);
  }

  end(): ModelOutputEvent[] {
    return this.#reader.end();
  }
}
