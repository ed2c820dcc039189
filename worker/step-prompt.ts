import { buildTemplateMessages } from "../models/build-template-messages.js";
import { modelFormat } from "../models/model-formats.js";
import { neutralizeToolDescriptor } from "../models/neutralize-model-text.js";
import type { GenerateRequest, StepRequest } from "./protocol.js";

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
