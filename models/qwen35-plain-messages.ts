import type { ToolDescriptor } from "../runtime/session/tool-descriptor.js";
import type { PlainChatMessage, TemplateMessage } from "./model-format.js";

/** Qwen3.5's fixed tool instructions, as its chat template writes them after the tool list (Qwen3.5's published chat template). */
const CALL_INSTRUCTIONS =
  "\n\nIf you choose to call a function ONLY reply in the following format with NO suffix:\n\n<tool_call>\n<function=example_function_name>\n" +
  "<parameter=example_parameter_1>\nvalue_1\n</parameter>\n<parameter=example_parameter_2>\nThis is the value for the second parameter\n" +
  "that can span\nmultiple lines\n</parameter>\n</function>\n</tool_call>\n\n<IMPORTANT>\nReminder:\n" +
  "- Function calls MUST follow the specified format: an inner <function=...></function> block must be nested within <tool_call></tool_call> XML tags\n" +
  "- Required parameters MUST be specified\n" +
  "- You may provide optional reasoning for your function call in natural language BEFORE the function call, but NOT after\n" +
  "- If there is no function call available, answer the question like normal with your current knowledge and do not tell the user about function calls\n" +
  "</IMPORTANT>";

/** A past argument as the template renders it: mappings and lists as JSON, the rest as text (null as Python's `None`). */
export function renderQwen35Value(value: unknown): string {
  if (value === null || value === undefined) return "None";
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

/** One past call in Qwen3.5's XML. */
export function renderQwen35Call(name: string, input: Record<string, unknown>): string {
  const parameters = Object.entries(input).map(([key, value]) => `<parameter=${key}>\n${renderQwen35Value(value)}\n</parameter>\n`);
  return `<tool_call>\n<function=${name}>\n${parameters.join("")}</function>\n</tool_call>`;
}

/**
 * Renders tools, past calls and tool results the way Qwen3.5's own chat
 * template does (the tool block first in the system turn, then the system
 * text; XML calls after the assistant's text; consecutive results in one
 * user turn), for an engine that does not run the template (web-llm). The
 * system turn stays byte-identical between steps so a prefix cache holds.
 */
export function renderQwen35ToolMessages(messages: readonly TemplateMessage[], tools: readonly ToolDescriptor[]): PlainChatMessage[] {
  const rendered: PlainChatMessage[] = [];
  const system = messages[0]?.role === "system" ? messages[0].content.trim() : undefined;
  if (tools.length) {
    const list = tools.map((tool) => `\n${JSON.stringify({ type: "function", function: { name: tool.name, description: tool.description, parameters: tool.inputSchema } })}`).join("");
    rendered.push({ role: "system", content: `# Tools\n\nYou have access to the following functions:\n\n<tools>${list}\n</tools>${CALL_INSTRUCTIONS}${system ? `\n\n${system}` : ""}` });
  } else if (system !== undefined) {
    rendered.push({ role: "system", content: system });
  }
  for (const message of system === undefined ? messages : messages.slice(1)) {
    if (message.role === "tool") {
      const previous = rendered.at(-1);
      const response = `<tool_response>\n${message.content}\n</tool_response>`;
      if (previous?.role === "user" && previous.content.startsWith("<tool_response>")) previous.content += `\n${response}`;
      else rendered.push({ role: "user", content: response });
    } else if (message.role === "assistant" && message.tool_calls?.length) {
      const calls = message.tool_calls.map((call) => renderQwen35Call(call.function.name, call.function.arguments)).join("\n");
      rendered.push({ role: "assistant", content: message.content.trim() ? `${message.content.trim()}\n\n${calls}` : calls });
    } else {
      rendered.push({ role: message.role === "system" ? "system" : message.role, content: message.content });
    }
  }
  return rendered;
}
