import type { ModelFormat } from "./model-format.js";
import { neutralizeToolMessage } from "./neutralize-model-text.js";
import { renderQwenToolMessages } from "./qwen3-plain-messages.js";
import { QwenOutputParser } from "./qwen-output-parser.js";

/** Qwen3: Hermes-style JSON tool calls (`<tool_call>{"name": …, "arguments": {…}}</tool_call>`), `<think>` in the output. */
export const QWEN3_FORMAT: ModelFormat = {
  id: "qwen3",
  // A tool result cannot fake a turn or a call: its special tokens and tags are broken.
  templateMessages: (messages) => messages.map(neutralizeToolMessage),
  plainMessages: (messages, tools) => renderQwenToolMessages([...messages], [...tools]),
  // Qwen3's template puts no open <think> in the prompt: the model writes its own tags.
  createParser: () => new QwenOutputParser(),
  grammar: (tools) => ({ syntax: "hermes-json", callOpen: "<tool_call>", callClose: "</tool_call>", tools: tools.map(({ name, inputSchema }) => ({ name, inputSchema })) }),
  callHint: 'Write the call as {"name": …, "arguments": {…}}.',
};
