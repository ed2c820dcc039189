import type { AgentAdapter } from "../../session/agent-adapter.js";
import type { AgentStreamPart } from "../../session/agent-stream-part.js";
import type { EvalStep } from "./eval-report.js";

/** An adapter that passes everything through to `adapter` and keeps what the evaluation reads off the stream. */
export interface RecordingAdapter extends AgentAdapter {
  /** One entry per `step-finish` part, its usage where the adapter reported one. */
  readonly steps: EvalStep[];
  /** Tool errors with the code `invalid_input`. */
  invalidCalls: number;
}

/**
 * Wraps `adapter` for one scenario run. Delegates member by member, not by
 * spreading, so an adapter that is a class instance keeps its methods.
 */
export function recordingAdapter(adapter: AgentAdapter): RecordingAdapter {
  const recorder: RecordingAdapter = {
    id: adapter.id,
    label: adapter.label,
    steps: [],
    invalidCalls: 0,
    status: () => adapter.status?.() ?? { state: "ready" },
    async *run(request) {
      for await (const part of adapter.run(request)) {
        record(part);
        yield part;
      }
    },
  };
  if (adapter.subscribe) recorder.subscribe = (listener) => adapter.subscribe!(listener);
  function record(part: AgentStreamPart) {
    if (part.type === "step-finish") {
      const usage = part.usage;
      recorder.steps.push(
        usage
          ? {
              promptTokens: usage.promptTokens,
              outputTokens: usage.outputTokens,
              ...(usage.cachedPromptTokens !== undefined && { cachedPromptTokens: usage.cachedPromptTokens }),
              ...(usage.timeToFirstTokenMs !== undefined && { timeToFirstTokenMs: usage.timeToFirstTokenMs }),
              ...(usage.decodeTokensPerSecond !== undefined && { decodeTokensPerSecond: usage.decodeTokensPerSecond }),
              ...(usage.repairedCalls !== undefined && { repairedCalls: usage.repairedCalls }),
            }
          : { promptTokens: 0, outputTokens: 0 },
      );
    } else if (part.type === "tool-error" && (part.code === "invalid_input" || /^Error \[invalid_input\]/.test(part.error))) {
      recorder.invalidCalls++;
    }
  }
  return recorder;
}
