// The model's format, applied in the worker around every engine: the step's
// prompt in (stepPrompt), the generated text read into step parts out (readWithFormat).
import { buildTemplateMessages } from "../models/build-template-messages.js";
import { modelFormat } from "../models/model-formats.js";
import { neutralizeToolDescriptor } from "../models/neutralize-model-text.js";
import type { ModelOutputEvent } from "../models/model-output-event.js";
import type { EngineEvent, GenerateRequest, RawEngineEvent, StepRequest } from "./protocol.js";

/**
 * The one place a step's prompt is made, in the worker, for every engine:
 * the conversation in the model's chat-template shape (`buildTemplateMessages`:
 * system prompt, turns, calls, results), made safe by the model's format
 * (`templateMessages`: a tool result cannot fake a turn or a call), and the
 * page's tools with their descriptions and schema strings neutralized the
 * same way. Pure, so each step's prompt extends the previous one byte for
 * byte.
 */
export function stepPrompt(request: StepRequest): GenerateRequest {
  const { conversation, instructions, basePrompt, ...rest } = request;
  const messages = buildTemplateMessages(conversation, { ...(instructions && { instructions }), ...(basePrompt !== undefined && { basePrompt }) });
  return { ...rest, messages: modelFormat(request.model.format).templateMessages(messages), tools: request.tools.map(neutralizeToolDescriptor) };
}

/**
 * Wraps a generation's event callback so the engine's raw text is read with
 * the request's model format (`request.model.format`), here in the worker.
 * The parser's events are already step parts; a call that could not be read
 * gets the format's hint on how to write one. What crosses to the main
 * thread: `text-delta`, `reasoning`, parsed tool calls and invalid ones,
 * then `usage` and `finish` (the parser is flushed before them).
 */
export function readWithFormat(request: GenerateRequest, onEvent: (event: EngineEvent) => void): (event: RawEngineEvent) => void {
  const format = modelFormat(request.model.format);
  const parser = format.createParser({ tools: request.tools, thinking: request.enableThinking === true });
  const forward = (events: ModelOutputEvent[]) => {
    for (const event of events) onEvent(event.type === "tool-call-invalid" ? { ...event, error: `${event.error}. ${format.callHint}` } : event);
  };
  let flushed = false;
  return (event) => {
    if (event.type === "text" && !flushed) return forward(parser.push(event.text));
    if (!flushed) {
      // Whatever the parser still holds (an unclosed reasoning, a cut-off call) is read before the usage and the finish.
      flushed = true;
      forward(parser.end());
    }
    if (event.type !== "text") onEvent(event);
  };
}
