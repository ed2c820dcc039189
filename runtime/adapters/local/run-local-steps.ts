import { toolErrorPart } from "../../session/tool-error-part.js";
import { buildTemplateMessages } from "../../../models/build-template-messages.js";
import type { EngineHost, GenerateRequest, GenerationUsage, ModelSource } from "../../../worker/protocol.js";
import type { AgentRunRequest, ToolCallRequest } from "../../session/agent-adapter.js";
import type { AgentStreamPart } from "../../session/agent-stream-part.js";
import { isAbortError } from "../abortable.js";
import { CANCELLED_CALL, endStep } from "../end-step.js";
import { RunTranscript } from "../run-transcript.js";
import { turnToolSteps } from "../turn-tool-steps.js";
import { engineErrorCode, engineErrorPart } from "./describe-engine-error.js";
import { streamEngineEvents } from "./stream-engine-events.js";

/** What one run needs besides the request. */
export interface LocalRunContext {
  engine: EngineHost;
  model: ModelSource;
  /** Tool steps per user message when the agent sets none. */
  maxSteps: number;
  /** Names this conversation for the engine's KV cache. */
  conversationId: string;
  /** Passed to every generation. */
  generation?: Pick<GenerateRequest, "maxNewTokens" | "temperature" | "enableThinking" | "constrainToolCalls">;
  /** The system prompt's first lines (default `BASE_SYSTEM_PROMPT`). */
  basePrompt?: string;
  newId?: () => string;
}





/**
 * The tool loop on the main thread. Each step renders the conversation
 * (built with the session's own reducer, tool results cut as the session
 * records them) into template messages, reads `req.tools` fresh, and streams
 * one `engine.generate` through the Qwen output parser: text -> `text-delta`,
 * `<think>` -> `reasoning`, `<tool_call>` -> `tool-call` (a malformed one is
 * answered at once with `tool-error` `Error [invalid_input]: …` and never
 * run). The step's calls then run one at a time through `req.callTool`.
 * After `maxSteps` tool steps (the agent's own first) one more generation
 * runs without tools to sum up, and the run ends `max-steps`. Never throws:
 * engine failures are `error` parts, Stop cancels the generation in the
 * engine and ends `aborted`, and every `tool-call` gets its result or error.
 */
export async function* runLocalSteps(req: AgentRunRequest, context: LocalRunContext): AsyncGenerator<AgentStreamPart> {
  const { signal } = req;
  const newId = context.newId ?? (() => crypto.randomUUID());
  const maxSteps = req.agent?.maxSteps ?? context.maxSteps;
  const instructions = req.agent?.instructions ?? [];
  const transcript = new RunTranscript(req.messages);
  const { record, open, closeOpen } = transcript;

  let step = 0;
  let toolSteps = turnToolSteps(req.messages);
  try {
    for (;;) {
      const summingUp = toolSteps >= maxSteps;
      const request: GenerateRequest = {
        ...context.generation,
        id: newId(),
        model: context.model,
        conversationId: context.conversationId,
        messages: buildTemplateMessages(transcript.messages, { instructions, ...(context.basePrompt !== undefined && { basePrompt: context.basePrompt }) }),
        tools: summingUp ? [] : req.tools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema })),
        // The closing summary may not call: where calls are constrained, the opener is masked.
        ...(summingUp && { toolChoice: "none" as const }),
      };
      step++;
      const messageId = newId();
      yield record({ type: "message-start", messageId });
      const calls: ToolCallRequest[] = [];
      let invalidCalls = 0;
      let aborted = false;
      let usage: GenerationUsage | undefined;
      // The worker read the model's output with its format: no model text is parsed here.
      for await (const event of streamEngineEvents(context.engine, request, signal)) {
        switch (event.type) {
          case "text":
            yield record({ type: "text-delta", messageId, delta: event.text });
            break;
          case "reasoning":
            yield record({ type: "reasoning", messageId, text: event.text });
            break;
          case "tool-call": {
            const id = newId();
            open.add(id);
            calls.push({ id, name: event.name, input: event.input });
            yield record({ type: "tool-call", messageId, id, name: event.name, input: event.input });
            break;
          }
          case "tool-call-invalid": {
            // Never run: answered at once, so the model reads why and can write the call again.
            invalidCalls++;
            const id = newId();
            yield record({ type: "tool-call", messageId, id, name: event.name, input: event.text });
            yield record(toolErrorPart(id, `Error [invalid_input]: ${event.error}. ${event.hint}`));
            break;
          }
          case "usage":
            usage = event.usage;
            break;
          case "end":
            if (event.reason === "aborted") aborted = true;
            break;
        }
      }
      if (aborted || signal.aborted) throw signal.reason ?? new DOMException("The run was stopped.", "AbortError");

      const hadCalls = calls.length > 0 || invalidCalls > 0;
      const stepUsage = usage && {
        promptTokens: usage.promptTokens,
        cachedPromptTokens: usage.cachedPromptTokens,
        outputTokens: usage.outputTokens,
        timeToFirstTokenMs: usage.timeToFirstTokenMs,
        decodeTokensPerSecond: usage.decodeTokensPerSecond,
      };
      if (yield* endStep({ req, transcript, calls, hadCalls, summingUp, step, usage: stepUsage })) return;
      toolSteps++;
    }
  } catch (error) {
    yield* closeOpen(CANCELLED_CALL);
    if (signal.aborted || isAbortError(error) || engineErrorCode(error) === "aborted") {
      yield { type: "finish", reason: "aborted" };
    } else {
      yield engineErrorPart(error);
    }
  }
}
