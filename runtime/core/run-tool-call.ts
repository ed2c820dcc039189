import { emitAgentEvent, isEventOfCall, onAgentEvent, withCallId } from "./agent-events.js";
import { toolErrorOutput } from "./tool-error-output.js";
import type { ToolOutput } from "./tool-output.js";

/** One tool call's identity and limits. */
export interface ToolCallRun {
  tool: string;
  callId?: string;
  /** The caller's stop. */
  signal?: AbortSignal;
  /** Milliseconds of running time allowed; `Infinity` for no limit. Parked time does not count. */
  timeout: number;
}

/**
 * Runs one page tool call around `run`: emits `start` and `end`, hands `run`
 * a signal that aborts when the caller's does or the time runs out, and turns
 * every way of failing into an error output. Never rejects.
 *
 * The timeout is paused from a `park` agent event of this call until its
 * `resume`, so time spent waiting for the person's click does not count
 * (matched by `callId`, or by tool name for a tool that knows no call id).
 */
export function runToolCall(call: ToolCallRun, run: (signal: AbortSignal) => Promise<ToolOutput>): Promise<ToolOutput> {
  const { tool, callId, signal, timeout } = call;
  if (signal?.aborted) return Promise.resolve(cancelledBeforeRun(tool));
  const controller = new AbortController();
  emitAgentEvent({ type: "start", tool, ...withCallId(callId) });
  return new Promise<ToolOutput>((resolve) => {
    let settled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let remaining = timeout;
    let armedAt = 0;
    let parked = 0;
    const arm = () => {
      if (!Number.isFinite(remaining)) return;
      armedAt = Date.now();
      timer = setTimeout(onTimeout, Math.max(0, remaining));
    };
    const finish = (output: ToolOutput) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      stopEvents();
      signal?.removeEventListener("abort", onAbort);
      emitAgentEvent({ type: "end", tool, isError: output.isError === true, ...withCallId(callId) });
      resolve(output);
    };
    const onAbort = () => {
      controller.abort(signal?.reason);
      finish(toolErrorOutput("cancelled", `The call to ${tool} was stopped before it finished. Check the page before trying again.`));
    };
    function onTimeout() {
      controller.abort(new DOMException(`${tool} timed out.`, "TimeoutError"));
      finish(
        toolErrorOutput(
          "timeout",
          `${tool} did not finish within ${formatSeconds(timeout)} and was stopped. ` +
            `It may have done part of its work: read the page again before calling ${tool} again.`,
        ),
      );
    }
    const stopEvents = onAgentEvent((event) => {
      if (!isEventOfCall(event, { tool, callId }) || settled) return;
      if (event.type === "park" && parked++ === 0) {
        clearTimeout(timer);
        if (Number.isFinite(remaining)) remaining -= Date.now() - armedAt;
      } else if (event.type === "resume" && parked > 0 && --parked === 0) {
        arm();
      }
    });
    signal?.addEventListener("abort", onAbort, { once: true });
    arm();
    Promise.resolve()
      .then(() => run(controller.signal))
      .then(finish, (error: unknown) => finish(thrownOutput(tool, error)));
  });
}

/** The output for a call stopped before it ran. */
export function cancelledBeforeRun(tool: string): ToolOutput {
  return toolErrorOutput("cancelled", `The call to ${tool} was stopped before it ran.`);
}

function thrownOutput(tool: string, error: unknown): ToolOutput {
  if (isAbortError(error)) {
    return toolErrorOutput("cancelled", `${tool} was cancelled: ${describeThrown(error)}`);
  }
  return toolErrorOutput("tool_failed", `${tool} failed: ${describeThrown(error)}`);
}

function isAbortError(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { name?: unknown }).name === "AbortError";
}

/** An error's message (with its name when that says more than "Error"), or the thrown value as text. */
function describeThrown(error: unknown): string {
  if (typeof error === "object" && error !== null && typeof (error as Error).message === "string") {
    const { name, message } = error as Error;
    const text = message || "no message";
    return typeof name === "string" && name !== "Error" && name !== "" ? `${name}: ${text}` : text;
  }
  if (typeof error === "string") return error || "no message";
  try {
    return JSON.stringify(error) ?? String(error);
  } catch {
    return String(error);
  }
}

function formatSeconds(ms: number): string {
  const seconds = ms / 1000;
  return `${Number.isInteger(seconds) ? seconds : seconds.toFixed(1)} s`;
}
