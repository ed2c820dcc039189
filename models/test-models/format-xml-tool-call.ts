import { toPythonStyleJson, type QwenToolCall } from "./format-tool-call.js";

/**
 * One parameter value as Qwen3.5's chat template renders a past call's
 * argument: a mapping or a list as JSON (`tojson`, Python's `", "` / `": "`
 * spacing), anything else as text (`|string`: a string raw, `2`, `true`).
 * transformers.js's Jinja renders booleans `true` / `false`; Python's would
 * render `True` / `False`. The template throws on `null`; here it is `null`.
 */
export function formatXmlParameterValue(value: unknown): string {
  if (value !== null && typeof value === "object") return toPythonStyleJson(value);
  return String(value);
}

/**
 * The text Qwen3.5 emits for one tool call, exactly as its chat template
 * renders the call back into the prompt:
 *
 * ```text
 * <tool_call>
 * <function=add_to_cart>
 * <parameter=sku>
 * socks
 * </parameter>
 * <parameter=quantity>
 * 2
 * </parameter>
 * </function>
 * </tool_call>
 * ```
 *
 * Parameters come in the object's key order; the values carry no type (the
 * reader types them from the tool's JSON Schema).
 */
export function formatXmlToolCall(call: QwenToolCall): string {
  const parameters = Object.entries(call.arguments).map(([key, value]) => `<parameter=${key}>\n${formatXmlParameterValue(value)}\n</parameter>\n`);
  return `<tool_call>\n<function=${call.name}>\n${parameters.join("")}</function>\n</tool_call>`;
}
