import { validateToolInput } from "../../core/validate-tool-input.js";
import type { StepPart } from "../../session/step-part.js";
import type { ToolDescriptor } from "../../session/tool-descriptor.js";

/** A finished reply, read: its answer, or its calls as step parts. */
export type StepOutput =
  | { kind: "answer"; answer: string }
  | { kind: "calls"; parts: Extract<StepPart, { type: "tool-call" | "tool-call-invalid" }>[] }
  | { kind: "unreadable" };

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Reads a finished reply (response-constraint.ts's shape) once it is whole.
 * Each call must name a tool offered this step and carry arguments valid
 * against that tool's full schema (checked as the page checks a call's
 * input, runtime/core/validate-tool-input.ts): a tool held to its object
 * shape, or a browser that let something through, gives a
 * `tool-call-invalid` the model reads back, never a call that runs.
 */
export async function readStepOutput(text: string, tools: readonly ToolDescriptor[]): Promise<StepOutput> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { kind: "unreadable" };
  }
  if (!isObject(value)) return { kind: "unreadable" };
  if (!Array.isArray(value.calls)) return typeof value.answer === "string" ? { kind: "answer", answer: value.answer } : { kind: "unreadable" };
  const parts: Extract<StepPart, { type: "tool-call" | "tool-call-invalid" }>[] = [];
  for (const call of value.calls as unknown[]) {
    const name = isObject(call) && typeof call.tool === "string" ? call.tool : "";
    const input = isObject(call) ? call.arguments : undefined;
    const inputText = JSON.stringify(input ?? {});
    const tool = tools.find((each) => each.name === name);
    if (!tool) {
      const offered = tools.map((each) => each.name).join(", ") || "none";
      parts.push({ type: "tool-call-invalid", name: name || "(no name)", inputText, error: `Error [unknown_tool]: There is no tool "${name}" on this page now. The tools are: ${offered}.` });
      continue;
    }
    const check = await validateToolInput(tool.name, input, tool.inputSchema);
    parts.push(check.ok ? { type: "tool-call", name: tool.name, input: check.value } : { type: "tool-call-invalid", name: tool.name, inputText, error: check.message });
  }
  return { kind: "calls", parts };
}
