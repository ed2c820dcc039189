import type { ModelFormat, TemplateMessage } from "./model-format.js";
import { neutralizeToolMessage } from "./neutralize-model-text.js";
import { Qwen35OutputParser } from "./qwen35-output-parser.js";
import { renderQwen35ToolMessages, renderQwen35Value } from "./qwen35-plain-messages.js";

/**
 * Qwen3.5: XML tool calls with schema-typed parameters, and an open
 * `<think>` in the prompt when thinking is on (the Small models' template
 * defaults to off).
 */
export const QWEN35_FORMAT: ModelFormat = {
  id: "qwen3.5",
  // transformers.js's Jinja throws on a null argument (`|string` of null): render it as the
  // model saw it in training, Python's None. A tool result cannot fake a turn or a call: its
  // special tokens and tags are broken.
  templateMessages: (messages) =>
    messages.map((message): TemplateMessage => {
      if (!message.tool_calls?.length) return neutralizeToolMessage(message);
      return {
        ...message,
        tool_calls: message.tool_calls.map((call) => ({
          ...call,
          function: {
            name: call.function.name,
            arguments: Object.fromEntries(Object.entries(call.function.arguments).map(([key, value]) => [key, value === null || value === undefined ? renderQwen35Value(value) : value])),
          },
        })),
      };
    }),
  plainMessages: renderQwen35ToolMessages,
  createParser: ({ tools, thinking }) => new Qwen35OutputParser({ tools, thinking }),
  grammar: (tools) => ({ syntax: "qwen-xml", callOpen: "<tool_call>", callClose: "</tool_call>", tools: tools.map(({ name, inputSchema }) => ({ name, inputSchema })) }),
  callHint: "Write the call as <tool_call>\n<function=NAME>\n<parameter=KEY>\nVALUE\n</parameter>\n</function>\n</tool_call>.",
};
