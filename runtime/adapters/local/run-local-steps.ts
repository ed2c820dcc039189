import type { EngineHost, GenerateRequest, ModelSource, StepRequest } from "../../../worker/protocol.js";
import type { AgentRunRequest } from "../../session/agent-adapter.js";
import type { AgentStreamPart } from "../../session/agent-stream-part.js";
import { abortError } from "../abortable.js";
import { runSteps } from "../run-steps.js";
import { toRequestMessages } from "../to-request-messages.js";
import { engineErrorCode, engineErrorPart } from "./describe-engine-error.js";
import { streamEngineEvents } from "./stream-engine-events.js";

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
 * engine's events, which the worker already read with the model's format:
 * they are the loop's step parts as they are (`EngineEvent`). The closing
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
      // The worker renders the prompt from the conversation (worker/step-prompt.ts).
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
      for await (const event of streamEngineEvents(context.engine, request, signal)) {
        if (event.type === "end") {
          if (event.reason === "aborted") throw abortError();
        } else if (event.type === "usage") {
          const { promptTokens, cachedPromptTokens, outputTokens, timeToFirstTokenMs, decodeTokensPerSecond, repairedCalls } = event.usage;
          yield { type: "usage", usage: { promptTokens, cachedPromptTokens, outputTokens, timeToFirstTokenMs, decodeTokensPerSecond, ...(repairedCalls !== undefined && { repairedCalls }) } };
        } else {
          yield event;
        }
      }
    },
    fail: (error) => (engineErrorCode(error) === "aborted" ? { type: "finish", reason: "aborted" } : engineErrorPart(error)),
  });
}
