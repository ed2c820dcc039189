import { toolErrorPart } from "../session/tool-error-part.js";
import { toolErrorOutput } from "../core/tool-error-output.js";
import type { ToolOutput } from "../core/tool-output.js";
import type { AgentRunRequest, ToolCallRequest } from "../session/agent-adapter.js";
import type { AgentStreamPart } from "../session/agent-stream-part.js";
import { abortable } from "./abortable.js";

/** What a tool call ends in: its result, or its error. */
export type ToolCallEndPart = Extract<AgentStreamPart, { type: "tool-result" } | { type: "tool-error" }>;

/**
 * Runs one tool call through `req.callTool` and returns the part that ends
 * it: `tool-result`, or `tool-error` with the failed result's first text.
 * `req.callTool` never rejects by contract; one that does anyway becomes a
 * failed result. Rejects with an `AbortError` when `signal` aborts first, so
 * Stop does not wait for a tool that ignores it. Shared by the adapters.
 */
export async function runToolCallPart(req: AgentRunRequest, call: ToolCallRequest, signal: AbortSignal): Promise<ToolCallEndPart> {
  const output = await abortable(callToolSafely(req, call), signal);
  return output.isError ? toolErrorPart(call.id, errorText(output)) : { type: "tool-result", id: call.id, output };
}

async function callToolSafely(req: AgentRunRequest, call: ToolCallRequest): Promise<ToolOutput> {
  try {
    return await req.callTool(call);
  } catch (error) {
    return toolErrorOutput("tool_failed", error instanceof Error ? error.message : String(error));
  }
}

function errorText(output: ToolOutput): string {
  const first = output.content[0];
  return first?.type === "text" ? first.text : "Error [tool_failed]: The tool failed without saying why.";
}
