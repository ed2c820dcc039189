import type { EngineEvent, EngineHost, GenerateRequest, ModelSource, StepRequest } from "../../../worker/protocol.js";
import type { AgentRunRequest } from "../../session/agent-adapter.js";
import type { AgentStreamPart } from "../../session/agent-stream-part.js";
import { abortError } from "../abortable.js";
import { runSteps } from "../run-steps.js";
import { toRequestMessages } from "../to-request-messages.js";
import { engineErrorCode, engineErrorPart } from "./describe-engine-error.js";

/** What one run needs besides the request. */
export interface LocalRunContext {
  engine: EngineHost;
  model: ModelSource;
  /** Tool steps per user message when the agent sets none. Default `LIMITS.maxSteps`. */
  maxSteps?: number;
  /** Names this conversation for the engine's KV cache. */
  conversationId: string;
  /** Passed to every generation. */
  generation?: Pick<GenerateRequest, "maxNewTokens" | "temperature" | "enableThinking" | "constrainToolCalls" | "reportRepairs">;
  /** The system prompt's first lines (default `BASE_SYSTEM_PROMPT`). */
  basePrompt?: string;
  newId?: () => string;
}

/**
 * The on-device adapter's run: the shared step loop (`runSteps`) with one
 * step as one `engine.generate`. Each step renders the conversation into
 * template messages (the agent's instructions first) and streams the
 * engine's events, which the worker already read with the model's format
 * into the loop's own step parts (`EngineEvent`): nothing is translated
 * here; a `finish` of `aborted` ends the run `aborted`. The closing
 * summary after `maxSteps` offers no tools and may not call. Engine failures
 * end the run as `error` parts with the engine's code; Stop cancels the
 * generation in the engine and ends `aborted`.
 */
export function runLocalSteps(req: AgentRunRequest, context: LocalRunContext): AsyncGenerator<AgentStreamPart> {
  const newId = context.newId ?? (() => crypto.randomUUID());
  const instructions = req.agent?.instructions ?? [];
  return runSteps(req, {
    maxSteps: context.maxSteps,
    newId,
    async *step({ messages, tools, summingUp, signal }) {
      // The worker renders the prompt from the conversation (worker/step-format.ts).
      const request: StepRequest = {
        ...context.generation,
        id: newId(),
        model: context.model,
        conversationId: context.conversationId,
        // Every message (no window): the engine's KV cache needs each step's prompt to extend the last.
        conversation: toRequestMessages(messages, Infinity),
        instructions,
        ...(context.basePrompt !== undefined && { basePrompt: context.basePrompt }),
        tools: summingUp ? [] : tools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema })),
        // The closing summary may not call: where calls are constrained, the opener is masked.
        ...(summingUp && { toolChoice: "none" as const }),
      };
      // The engine's events are step parts (worker/protocol.ts): the loop reads them as they come.
      yield* streamEngineEvents(context.engine, request, signal);
    },
    fail: (error) => (engineErrorCode(error) === "aborted" ? { type: "finish", reason: "aborted" } : engineErrorPart(error)),
  });
}

/**
 * `engine.generate` as an async iterable of its events. Aborting `signal`
 * calls `engine.cancel(request.id)` at once and ends the iteration with an
 * `AbortError` without waiting for the engine's last event, so Stop is
 * prompt even while a token is being computed. A rejected `generate` throws
 * its error from the iteration.
 */
async function* streamEngineEvents(engine: EngineHost, request: StepRequest, signal: AbortSignal): AsyncGenerator<EngineEvent> {
  if (signal.aborted) throw abortError();
  const queue: EngineEvent[] = [];
  let finished = false;
  let ended = false;
  let failure: { error: unknown } | undefined;
  let wake: (() => void) | undefined;
  const notify = () => {
    wake?.();
    wake = undefined;
  };
  const onAbort = () => {
    engine.cancel(request.id).catch(() => {});
    notify();
  };
  signal.addEventListener("abort", onAbort, { once: true });
  engine
    .generate(request, (event) => {
      queue.push(event);
      notify();
    })
    .then(
      () => (finished = true),
      (error: unknown) => (failure = { error }),
    )
    .finally(notify);
  try {
    for (;;) {
      if (signal.aborted) throw abortError();
      const event = queue.shift();
      if (event) {
        if (event.type === "finish") ended = true;
        yield event;
        if (ended) return;
        continue;
      }
      if (failure || finished) ended = true;
      if (failure) throw failure.error;
      if (finished) return;
      await new Promise<void>((resolve) => (wake = resolve));
    }
  } finally {
    signal.removeEventListener("abort", onAbort);
    // Left early (the loop stopped reading): the engine must not keep generating.
    if (!ended && !signal.aborted) engine.cancel(request.id).catch(() => {});
  }
}
