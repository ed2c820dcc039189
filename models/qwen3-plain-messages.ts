import type { PlainChatMessage, TemplateMessage } from "./model-format.js";
import type { ToolDescriptor } from "../runtime/session/tool-descriptor.js";
import { toPythonStyleJson } from "./python-style-json.js";

/**
 * Renders tools, tool calls and tool results the way Qwen3's own chat
 * template does (`# Tools` in the system message, `<tool_call>` in the
 * assistant's text, `<tool_response>` in a user turn), for engines whose
 * built-in template has no tool support. Keeps the system prompt and tool
 * list byte-identical between steps so a prefix cache stays valid.
 */
export function renderQwenToolMessages(messages: TemplateMessage[], tools: ToolDescriptor[]): PlainChatMessage[] {
  const rendered: PlainChatMessage[] = [];
  const system = messages[0]?.role === "system" ? messages[0].content : undefined;
  if (tools.length) {
    const list = tools.map((tool) => JSON.stringify({ type: "function", function: { name: tool.name, description: tool.description, parameters: tool.inputSchema } })).join("\n");
    rendered.push({
      role: "system",
      content:
        `${system ? `${system}\n\n` : ""}# Tools\n\nYou may call one or more functions to assist with the user query.\n\n` +
        `You are provided with function signatures within <tools></tools> XML tags:\n<tools>\n${list}\n</tools>\n\n` +
        `For each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:\n` +
        `<tool_call>\n{"name": <function-name>, "arguments": <args-json-object>}\n</tool_call>`,
    });
  } else if (system !== undefined) {
    rendered.push({ role: "system", content: system });
  }
  for (const message of system === undefined ? messages : messages.slice(1)) {
    if (message.role === "tool") {
      const previous = rendered.at(-1);
      const response = `<tool_response>\n${message.content}\n</tool_response>`;
      // Consecutive tool results share one user turn, as in Qwen's template.
      if (previous?.role === "user" && previous.content.startsWith("<tool_response>")) previous.content += `\n${response}`;
      else rendered.push({ role: "user", content: response });
    } else if (message.role === "assistant" && message.tool_calls?.length) {
      const calls = message.tool_calls.map((call) => `<tool_call>\n${toPythonStyleJson({ name: call.function.name, arguments: call.function.arguments })}\n</tool_call>`);
      rendered.push({ role: "assistant", content: [message.content, ...calls].filter(Boolean).join("\n") });
    } else {
      rendered.push({ role: message.role === "system" ? "system" : message.role, content: message.content });
    }
  }
  return rendered;
}
