import type { CallBodyReader } from "./call-body-reader.js";
import type { ModelOutputEvent } from "./model-output-event.js";
import { partialTagLength } from "./partial-tag.js";

const CALL_CLOSE = "</tool_call>";

/** The name a broken call body seems to give, for the model's hint ("" when none). */
function nameIn(text: string): string {
  return /"name"\s*:\s*"([^"]*)"/.exec(text)?.[1] ?? "";
}

/** Reads one Hermes call's body: `{"name": …, "arguments": {…}}` (arguments may be a JSON string holding the object). */
export function readHermesCall(body: string): ModelOutputEvent {
  const text = body.trim();
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { type: "tool-call-invalid", name: nameIn(text), inputText: text, error: `the call is not valid JSON (${(error as Error).message})` };
  }
  const call = value as { name?: unknown; arguments?: unknown };
  if (typeof call !== "object" || call === null || typeof call.name !== "string" || call.name === "") {
    return { type: "tool-call-invalid", name: "", inputText: text, error: 'the call needs a "name" string' };
  }
  let input = call.arguments ?? {};
  if (typeof input === "string") {
    try {
      input = JSON.parse(input);
    } catch {
      return { type: "tool-call-invalid", name: call.name, inputText: text, error: '"arguments" is a string that is not JSON' };
    }
  }
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    return { type: "tool-call-invalid", name: call.name, inputText: text, error: '"arguments" must be a JSON object' };
  }
  return { type: "tool-call", name: call.name, input: input as Record<string, unknown> };
}

/**
 * A Hermes (Qwen3) call's body as it streams: everything up to the first
 * `</tool_call>` is the JSON, read once it closes. A reply that ends before
 * the closer cut the call off: it is invalid, however complete its JSON looks.
 */
export class HermesCallReader implements CallBodyReader {
  #parts: string[] = [];
  #carry = "";

  push(text: string): { event: ModelOutputEvent; rest: string } | undefined {
    const window = this.#carry + text;
    const close = window.indexOf(CALL_CLOSE);
    if (close !== -1) {
      this.#parts.push(window.slice(0, close));
      return { event: readHermesCall(this.#parts.join("")), rest: window.slice(close + CALL_CLOSE.length) };
    }
    const keep = partialTagLength(window.slice(-CALL_CLOSE.length), [CALL_CLOSE]);
    this.#parts.push(window.slice(0, window.length - keep));
    this.#carry = window.slice(window.length - keep);
    return undefined;
  }

  end(): ModelOutputEvent {
    const text = (this.#parts.join("") + this.#carry).trim();
    return { type: "tool-call-invalid", name: nameIn(text), inputText: text, error: "the reply ended before </tool_call>: the call was cut off" };
  }
}
