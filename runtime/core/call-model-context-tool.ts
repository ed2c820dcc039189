import { getModelContext, isNativeModelContext, type ModelContext } from "./model-context.js";
import { toToolDescriptor } from "./read-page-tools.js";
import { cancelledBeforeRun, runToolCall } from "./run-tool-call.js";
import { runWebTool } from "./run-web-tool.js";
import { toToolOutput } from "./to-tool-output.js";
import { toolErrorOutput } from "./tool-error-output.js";
import type { ToolOutput } from "./tool-output.js";
import { validateToolInput } from "./validate-tool-input.js";
import { findRegisteredWebTool } from "./web-tool-registry.js";

/** How `callModelContextTool` runs a call. */
export interface CallModelContextToolOptions {
  /** Aborting stops the call: it resolves at once with `Error [cancelled]`. */
  signal?: AbortSignal;
  /**
   * Milliseconds the tool may run before it is stopped with `Error [timeout]`.
   * Time parked on `waitForClick` does not count. `Infinity` for no limit;
   * a value that is not a positive number uses the default. Default `30_000`.
   */
  timeout?: number;
}

/** One tool call: the model's `id` (passed to agent events as `callId`), the tool's `name`, its `input`. */
export interface ModelContextToolCall {
  id?: string;
  name: string;
  input: unknown;
}

const DEFAULT_TIMEOUT = 30_000;

/**
 * Runs one page tool, as `req.callTool` does. Never rejects and never throws:
 * every failure is an `isError` result whose text starts `Error [<code>]:`:
 * `unknown_tool` (no such tool now; lists those there are), `invalid_input`
 * (fails the tool's schema; lists the first problems), `tool_failed` (the tool
 * threw; its message), `timeout`, `cancelled` (the signal aborted, or the tool
 * threw an `AbortError`), `no_webmcp` (no `document.modelContext`).
 *
 * A tool this window registered with `registerWebTool` runs directly, with a
 * signal that aborts on `signal` or the timeout and the call's `id` as
 * `context.callId`, so its `waitForClick` and `pointAt` events name the call.
 * Any other tool runs through
 * `document.modelContext.executeTool` (an input object for native WebMCP, a
 * JSON string for the polyfill); its own events carry no call id. Emits the
 * agent events `start` before the tool runs and `end` after, both with `callId`. Results are normalized with
 * `toToolOutput`.
 */
export function callModelContextTool(call: ModelContextToolCall, options: CallModelContextToolOptions = {}): Promise<ToolOutput> {
  const name = typeof call === "object" && call !== null && typeof call.name === "string" ? call.name : undefined;
  return callTool(call, name, options).catch((error: unknown) =>
    toolErrorOutput("tool_failed", `${name ?? "The tool"} could not run: ${String(error)}`),
  );
}

async function callTool(call: ModelContextToolCall, name: string | undefined, options: CallModelContextToolOptions) {
  const { signal } = options;
  const timeout = typeof options.timeout === "number" && options.timeout > 0 ? options.timeout : DEFAULT_TIMEOUT;
  if (name === undefined) return toolErrorOutput("unknown_tool", "A tool call needs the tool's name as a string.");
  if (signal?.aborted) return cancelledBeforeRun(name);
  let context: ModelContext;
  try {
    context = getModelContext();
  } catch (error) {
    return toolErrorOutput("no_webmcp", `Page tools cannot run here: ${(error as Error).message}`);
  }
  const run = { callId: call.id, signal, timeout };
  const own = findRegisteredWebTool(name);
  if (own) return runWebTool(own, call.input, run);

  const entries = await context.getTools();
  if (signal?.aborted) return cancelledBeforeRun(name);
  const entry = entries.find((candidate) => (candidate as { name?: unknown } | null)?.name === name);
  if (typeof entry !== "object" || entry === null) return unknownTool(name, entries);
  const check = await validateToolInput(name, call.input, toToolDescriptor(entry)?.inputSchema);
  if (!check.ok) return toolErrorOutput("invalid_input", check.message);
  const native = isNativeModelContext(context);
  return runToolCall({ ...run, tool: name }, async (toolSignal) => {
    // Native executeTool takes an input object; the polyfill takes a JSON string.
    const input = native ? check.value : JSON.stringify(check.value);
    const result = await context.executeTool(entry, input, { signal: toolSignal });
    // The polyfill reports a tool that returned nothing as String(undefined).
    return toToolOutput(result === "undefined" ? undefined : result);
  });
}

function unknownTool(name: string, entries: unknown[]): ToolOutput {
  const names = entries
    .map((entry) => (entry as { name?: unknown } | null)?.name)
    .filter((candidate): candidate is string => typeof candidate === "string");
  const available =
    names.length > 0 ? `Tools on this page now: ${names.join(", ")}. Call one of those instead.` : "This page has no tools right now.";
  return toolErrorOutput("unknown_tool", `No tool named "${name}" is on this page now; the page may have changed. ${available}`);
}
