import { isRunErrorCode } from "../errors/error-codes.js";
import type { AgentRunRequest, ToolCallRequest } from "../session/agent-adapter.js";
import type { AgentMessage } from "../session/agent-message.js";
import type { AgentStreamPart, StepUsage } from "../session/agent-stream-part.js";
import { LIMITS } from "../session/limits.js";
import type { StepPart } from "../session/step-part.js";
import type { ToolDescriptor } from "../session/tool-descriptor.js";
import { toolErrorPart } from "../session/tool-error-part.js";
import { abortError, isAbortError } from "./abortable.js";
import { runToolCallPart } from "./run-tool-call-part.js";
import { RunTranscript } from "./run-transcript.js";
import { turnToolSteps } from "./turn-tool-steps.js";

/** The error of a call the run stopped before it ran. */
export const CANCELLED_CALL = "Error [cancelled]: The run stopped before this call ran.";
/** The error of a call made in the summing-up step, past the step budget. */
export const OVER_BUDGET_CALL = "Error [cancelled]: The step limit was reached before this call ran.";

/** What one model step is asked. */
export interface ModelStepRequest {
  /** The conversation so far: the run's messages, then what this run added (as the session holds it: cut what the model reads with `toRequestMessages`). */
  messages: AgentMessage[];
  /** The page's tools, read fresh for this step (the closing summary gets them too: a cloud model must see tools it called before). */
  tools: ToolDescriptor[];
  /** The closing summary after `maxSteps`: the step must answer without calling. */
  summingUp: boolean;
  /** 1 for the run's first step. */
  step: number;
  signal: AbortSignal;
}

/** How {@link runSteps} runs an adapter's steps. */
export interface RunStepsOptions {
  /** Tool steps per user message when the agent sets none. Default `LIMITS.maxSteps` (8). */
  maxSteps?: number;
  /**
   * One model step: streams its parts and ends. An `error` part ends the run
   * with it; anything thrown ends the run with `fail(error)`, an `AbortError`
   * (or Stop) with `finish` `"aborted"`.
   */
  step(request: ModelStepRequest): AsyncIterable<StepPart>;
  /** The run's last part when a step threw: the adapter words its own failures. */
  fail(error: unknown): Extract<AgentStreamPart, { type: "error" } | { type: "finish" }>;
  newId?: () => string;
}

/**
 * The multi-step tool loop every adapter shares, as the AI SDK splits one
 * provider step (`doStream`) from the loop (`streamText`): each step streams
 * through `options.step`; its text, reasoning and calls become stream parts
 * of one assistant message (started on the step's first part); a call that
 * could not be read is answered `Error [invalid_input]` at once and never
 * runs; the valid calls then run one at a time through `req.callTool`, and
 * the next step gets their results. After `maxSteps` tool steps (the agent's
 * own first) one more step runs without tools to sum up, and the run ends
 * `max-steps`. Never throws: every `tool-call` gets its result or error, Stop
 * ends `aborted`, a failure is the run's last part.
 */
export async function* runSteps(req: AgentRunRequest, options: RunStepsOptions): AsyncGenerator<AgentStreamPart> {
  const { signal } = req;
  const newId = options.newId ?? (() => crypto.randomUUID());
  const maxSteps = req.agent?.maxSteps ?? options.maxSteps ?? LIMITS.maxSteps;
  const transcript = new RunTranscript(req);
  const { record, open, closeOpen } = transcript;

  let step = 0;
  let toolSteps = turnToolSteps(req.messages);
  try {
    for (;;) {
      const summingUp = toolSteps >= maxSteps;
      step++;
      let messageId: string | undefined;
      const started = (): AgentStreamPart[] => {
        if (messageId !== undefined) return [];
        messageId = newId();
        return [record({ type: "message-start", messageId })];
      };
      const calls: ToolCallRequest[] = [];
      let invalidCalls = 0;
      let usage: StepUsage | undefined;
      const parts = options.step({ messages: transcript.messages, tools: req.tools, summingUp, step, signal });
      for await (const part of parts) {
        switch (part.type) {
          case "text-delta":
            yield* started();
            yield record({ type: "text-delta", messageId: messageId!, delta: part.delta });
            break;
          case "reasoning":
            yield* started();
            yield record({ type: "reasoning", messageId: messageId!, text: part.text, ...(part.providerMetadata && { providerMetadata: part.providerMetadata }) });
            break;
          case "tool-call": {
            yield* started();
            const id = part.id ?? newId();
            open.add(id);
            calls.push({ id, name: part.name, input: part.input });
            yield record({ type: "tool-call", messageId: messageId!, id, name: part.name, input: part.input, ...(part.providerMetadata && { providerMetadata: part.providerMetadata }) });
            break;
          }
          case "tool-call-invalid": {
            // Never run: answered at once, so the model reads why and can write the call again.
            yield* started();
            invalidCalls++;
            const id = part.id ?? newId();
            yield record({ type: "tool-call", messageId: messageId!, id, name: part.name, input: part.inputText });
            yield record(toolErrorPart(id, part.error.startsWith("Error [") ? part.error : `Error [invalid_input]: ${part.error}`));
            break;
          }
          case "usage":
            usage = part.usage;
            break;
          case "finish":
            if (part.reason === "aborted") throw abortError();
            break;
          case "error": {
            yield* closeOpen(CANCELLED_CALL);
            const code = isRunErrorCode(part.code) ? part.code : undefined;
            yield { type: "error", error: part.error || "The assistant failed. Try again in a moment.", ...(code && { code }) };
            return;
          }
        }
      }
      if (signal.aborted) throw signal.reason ?? abortError();
      yield* started();
      const hadCalls = calls.length > 0 || invalidCalls > 0;
      if (yield* endStep({ req, transcript, calls, hadCalls, summingUp, step, usage })) return;
      toolSteps++;
    }
  } catch (error) {
    yield* closeOpen(CANCELLED_CALL);
    yield signal.aborted || isAbortError(error) ? { type: "finish", reason: "aborted" } : options.fail(error);
  }
}

/** What ending one model step needs to know. */
interface EndStepOptions {
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
async function* endStep(options: EndStepOptions): AsyncGenerator<AgentStreamPart, boolean> {
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
