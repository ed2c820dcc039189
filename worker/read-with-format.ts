import type { ModelOutputEvent } from "../models/qwen-output-parser.js";
import { modelFormat } from "../models/model-formats.js";
import type { EngineEvent, GenerateRequest, RawEngineEvent } from "./protocol.js";

/**
 * Wraps a generation's event callback so the engine's raw text is read with
 * the request's model format (`request.model.format`), here in the worker:
 * what crosses to the main thread is step parts (`text-delta`, `reasoning`,
 * parsed tool calls and invalid ones, with how to write one), then usage and
 * `end` (the parser is flushed before `end`).
 */
export function readWithFormat(request: GenerateRequest, onEvent: (event: EngineEvent) => void): (event: RawEngineEvent) => void {
  const format = modelFormat(request.model.format);
  const parser = format.createParser({ tools: request.tools, thinking: request.enableThinking === true });
  const forward = (events: ModelOutputEvent[]) => {
    for (const event of events) {
      switch (event.type) {
        case "text":
          onEvent({ type: "text-delta", delta: event.delta });
          break;
        case "reasoning":
          onEvent({ type: "reasoning", text: event.text });
          break;
        case "tool-call":
          onEvent({ type: "tool-call", name: event.name, input: event.input });
          break;
        case "tool-call-invalid":
          onEvent({ type: "tool-call-invalid", name: event.name, inputText: event.text, error: `${event.error}. ${format.callHint}` });
          break;
      }
    }
  };
  let flushed = false;
  return (event) => {
    if (event.type === "text" && !flushed) return forward(parser.push(event.text));
    if (!flushed) {
      // Whatever the parser still holds (an unclosed reasoning, a cut-off call) is read before the usage and the end.
      flushed = true;
      forward(parser.end());
    }
    if (event.type !== "text") onEvent(event);
  };
}
