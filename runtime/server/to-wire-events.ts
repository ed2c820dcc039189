import { APICallError, type TextStreamPart, type ToolSet } from "ai";
import type { ChatLogger } from "./chat-logger.js";
import type { ChatWireEvent } from "./chat-wire.js";

/** What one step cost and how it ended, filled in while {@link toWireEvents} runs. */
export interface StepOutcome {
  /** Tokens the step used (input plus output), once the provider reported them. */
  usedTokens: number | undefined;
  /** The model call failed; nothing it produced counts. */
  failed: boolean;
  /** Whether anything went out before the failure. */
  produced: boolean;
}

/** What {@link toWireEvents} takes besides the stream. */
export interface WireEventOptions {
  /** The summary step: tool calls are dropped (the model was told to use none) and `tool-calls` finishes as `stop`. */
  summary: boolean;
  outcome: StepOutcome;
  logger: ChatLogger;
}

type Metadata = Record<string, Record<string, unknown>>;

/**
 * One model step's AI SDK stream as wire events: text as `text-delta`;
 * reasoning gathered into one `reasoning` event per block with its provider
 * metadata merged (Claude's signature arrives on a delta, OpenAI's encrypted
 * content on the end); each tool call as `tool-call`, or `tool-call-invalid`
 * when its input did not parse or it names no declared tool; then exactly
 * one `finish` or `error`. Provider errors are logged here and go out as a
 * generic message: their text can carry request details.
 */
export async function* toWireEvents(
  stream: AsyncIterable<TextStreamPart<ToolSet>>,
  options: WireEventOptions,
): AsyncGenerator<ChatWireEvent> {
  const { outcome, logger } = options;
  const reasoning = new Map<string, { text: string; metadata: Metadata | undefined }>();
  const invalidCalls = new Set<string>();
  // The summary step runs with toolChoice "none"; a model that calls a tool anyway gets its text kept.
  let ignoredToolCall = false;
  const fail = (error: unknown): ChatWireEvent => {
    outcome.failed = true;
    logger.error("webmcp-agents: the model call failed", error);
    return { type: "error", error: providerErrorMessage(error) };
  };
  try {
    for await (const part of stream) {
      switch (part.type) {
        case "text-delta":
          if (part.text !== "") {
            outcome.produced = true;
            yield { type: "text-delta", delta: part.text };
          }
          break;
        case "reasoning-start":
          reasoning.set(part.id, { text: "", metadata: mergeMetadata(undefined, part.providerMetadata) });
          break;
        case "reasoning-delta": {
          const block = reasoning.get(part.id) ?? { text: "", metadata: undefined };
          block.text += part.text;
          block.metadata = mergeMetadata(block.metadata, part.providerMetadata);
          reasoning.set(part.id, block);
          break;
        }
        case "reasoning-end": {
          const block = reasoning.get(part.id) ?? { text: "", metadata: undefined };
          reasoning.delete(part.id);
          const metadata = mergeMetadata(block.metadata, part.providerMetadata);
          if (block.text === "" && metadata === undefined) break;
          outcome.produced = true;
          yield metadata === undefined
            ? { type: "reasoning", text: block.text }
            : { type: "reasoning", text: block.text, providerMetadata: metadata };
          break;
        }
        case "tool-call": {
          if (options.summary) break;
          outcome.produced = true;
          if (part.invalid === true) {
            invalidCalls.add(part.toolCallId);
            yield {
              type: "tool-call-invalid",
              id: part.toolCallId,
              name: part.toolName,
              inputText: typeof part.input === "string" ? part.input : JSON.stringify(part.input ?? null),
              error: invalidCallMessage(part.error),
            };
            break;
          }
          const metadata = mergeMetadata(undefined, part.providerMetadata);
          yield {
            type: "tool-call",
            id: part.toolCallId,
            name: part.toolName,
            input: part.input,
            ...(metadata === undefined ? {} : { providerMetadata: metadata }),
          };
          break;
        }
        case "finish-step": {
          const { inputTokens, outputTokens, totalTokens } = part.usage;
          const used = totalTokens ?? (inputTokens === undefined && outputTokens === undefined ? undefined : (inputTokens ?? 0) + (outputTokens ?? 0));
          if (used !== undefined) outcome.usedTokens = (outcome.usedTokens ?? 0) + used;
          break;
        }
        case "finish": {
          const reason = part.finishReason;
          if (reason === "error" && ignoredToolCall) {
            yield { type: "finish", reason: "stop" };
            return;
          }
          if (reason === "error") {
            yield fail(new Error("The model finished with reason \"error\"."));
            return;
          }
          yield { type: "finish", reason: reason === "tool-calls" && options.summary ? "stop" : reason };
          return;
        }
        case "error":
          if (options.summary && errorName(part.error) === "AI_ToolChoiceViolationError") {
            logger.warn("webmcp-agents: the model called a tool on the summary step (tools were off); the call was dropped");
            ignoredToolCall = true;
            break;
          }
          yield fail(part.error);
          return;
        case "abort":
          // The client went away; there is no one to tell.
          return;
        default:
          // tool-input-*, text-start/end, sources, files, raw: nothing the page needs.
          break;
      }
    }
  } catch (error) {
    yield fail(error);
    return;
  }
  yield fail(new Error("The model's stream ended without a finish part."));
}

/** Per-provider merge: later entries win within a provider, earlier providers' entries stay. */
function mergeMetadata(into: Metadata | undefined, from: unknown): Metadata | undefined {
  if (typeof from !== "object" || from === null) return into;
  let merged = into;
  for (const [provider, value] of Object.entries(from as Record<string, unknown>)) {
    if (typeof value !== "object" || value === null) continue;
    merged = { ...merged, [provider]: { ...merged?.[provider], ...(value as Record<string, unknown>) } };
  }
  return merged;
}

function errorName(error: unknown): unknown {
  return typeof error === "object" && error !== null ? (error as { name?: unknown }).name : undefined;
}

function invalidCallMessage(error: unknown): string {
  if (errorName(error) === "AI_NoSuchToolError") return "The model called a tool that isn't on this page.";
  return "The model sent arguments that aren't valid JSON.";
}

/** What a person reads when the provider fails: never the provider's own text, which can echo the request. */
export function providerErrorMessage(error: unknown): string {
  const status = APICallError.isInstance(error) ? error.statusCode : undefined;
  if (status === 429 || status === 503 || status === 529) return "The model is overloaded right now. Try again in a minute.";
  if (status === 400 || status === 413) {
    return "The model refused the request; the conversation may be too long. Start a new one and try again.";
  }
  if (status === 401 || status === 403) return "The assistant isn't set up correctly on the server.";
  return "The assistant couldn't answer. Try again.";
}
