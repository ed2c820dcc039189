import type { AgentRunRequest, ToolCallRequest } from "../session/agent-adapter.js";
import type { AgentStreamPart, StepUsage } from "../session/agent-stream-part.js";
import { runToolCallPart } from "./run-tool-call-part.js";
import type { RunTranscript } from "./run-transcript.js";

/** The error of a call the run stopped before it ran. */
export const CANCELLED_CALL = "Error [cancelled]: The run stopped before this call ran.";
/** The error of a call made in the summing-up step, past the step budget. */
export const OVER_BUDGET_CALL = "Error [cancelled]: The step limit was reached before this call ran.";

/** What ending one model step needs to know. */
export interface EndStepOptions {
  req: AgentRunRequest;
  transcript: RunTranscript;
  /** The step's valid calls, in order. */
  calls: readonly ToolCallRequest[];
  /** The step called tools (valid or not). */
  hadCalls: boolean;
  /** This was the step after the budget, which must answer without tools. */
  summingUp: boolean;
  step: number;
  /** The step's generation usage, carried on its `step-finish`. */
  usage?: StepUsage | undefined;
}

/**
 * Ends one model step the same way in every adapter: a summing-up step that
 * still called tools closes them unrun and ends `max-steps`; otherwise the
 * calls run one at a time through `req.callTool`, then `step-finish`, then
 * `finish` when the step called nothing. Returns whether the run is over.
 * Throws the signal's reason when Stop came during a call.
 */
export async function* endStep(options: EndStepOptions): AsyncGenerator<AgentStreamPart, boolean> {
  const { req, transcript, calls, hadCalls, summingUp, step } = options;
  const finished: AgentStreamPart = options.usage ? { type: "step-finish", step, usage: options.usage } : { type: "step-finish", step };
  const { signal } = req;
  if (hadCalls && summingUp) {
    yield* transcript.closeOpen(OVER_BUDGET_CALL);
    yield finished;
    yield { type: "finish", reason: "max-steps" };
    return true;
  }
  for (const call of calls) {
    if (signal.aborted) break;
    const end = await runToolCallPart(req, call, signal);
    transcript.open.delete(call.id);
    yield transcript.record(end);
  }
  if (signal.aborted) throw signal.reason;
  yield finished;
  if (hadCalls) return false;
  yield { type: "finish", reason: summingUp ? "max-steps" : "stop" };
  return true;
}
