import type { WebTool } from "./define-web-tool.js";
import { runToolCall } from "./run-tool-call.js";
import { toToolOutput } from "./to-tool-output.js";
import { toolErrorOutput } from "./tool-error-output.js";
import type { ToolOutput } from "./tool-output.js";
import { validateToolInput } from "./validate-tool-input.js";
import { pointAt } from "./point-at.js";
import { waitForClick } from "./wait-for-click.js";

/** How to run a tool from `defineWebTool` directly. */
export interface RunWebToolOptions {
  /** The call's id: in the context, and on every agent event the call causes. Default: not set. */
  callId?: string;
  signal?: AbortSignal;
  /** Milliseconds; `Infinity` for no limit. */
  timeout: number;
}

/**
 * Runs a tool this window defined, in-process: validates `input` (its
 * Standard Schema, else its JSON Schema), then calls `execute` with a context
 * whose signal aborts on the caller's stop or the timeout, whose
 * `waitForClick` parks the call and whose `pointAt` moves the cursor, both
 * naming the call by `callId` in their events. Never rejects.
 */
export async function runWebTool(tool: WebTool, input: unknown, options: RunWebToolOptions): Promise<ToolOutput> {
  const { name } = tool;
  let value: unknown;
  try {
    const check = await validateToolInput(name, input, tool.inputSchema, tool.validate);
    if (!check.ok) return toolErrorOutput("invalid_input", check.message);
    value = check.value;
  } catch (error) {
    return toolErrorOutput("tool_failed", `${name}: its input schema failed to validate the input (${String(error)}).`);
  }
  const { callId } = options;
  return runToolCall({ ...options, tool: name }, async (signal) => {
    const result = await tool.execute(value, {
      signal,
      ...(callId !== undefined && { callId }),
      waitForClick: (target, prompt) => waitForClick(target, prompt, { tool: name, signal, ...(callId !== undefined && { callId }) }),
      pointAt: (target, pointOptions) => pointAt(target, { ...pointOptions, tool: name, ...(callId !== undefined && { callId }) }),
    });
    return toToolOutput(result);
  });
}
