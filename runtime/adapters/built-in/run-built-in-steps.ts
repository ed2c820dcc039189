import type { AgentRunRequest } from "../../session/agent-adapter.js";
import type { AgentStreamPart } from "../../session/agent-stream-part.js";
import type { StepPart } from "../../session/step-part.js";
import type { ToolDescriptor } from "../../session/tool-descriptor.js";
import { abortError, isAbortError } from "../abortable.js";
import { runSteps } from "../run-steps.js";
import { toRequestMessages } from "../to-request-messages.js";
import { createAnswerStreamReader } from "./answer-stream-reader.js";
import type { ConversationSessions } from "./conversation-sessions.js";
import { describeBuiltInError } from "./describe-built-in-error.js";
import { assistantContent, buildSystemPrompt, encodeConversation, OVERFLOW_LINE, SUMMING_UP_NOTE, toolChangeNote } from "./prompt-messages.js";
import type { PromptApiMessage } from "./prompt-api.js";
import { readStepOutput } from "./read-step-output.js";
import { buildResponseConstraint, type HeldTool } from "./response-constraint.js";

/** What one run needs besides the request. */
export interface BuiltInRunContext {
  sessions: ConversationSessions;
  conversationId: string;
  /** Tool steps per user message when the agent sets none. Default `LIMITS.maxSteps`. */
  maxSteps?: number;
  /** Told of each tool held to its object shape; the adapter warns once per tool and keyword. */
  onHeld(held: readonly HeldTool[]): void;
  newId?: () => string;
}

const nameOf = (error: unknown) => (typeof error === "object" && error !== null ? (error as { name?: unknown }).name : undefined);
const now = () => (typeof performance !== "undefined" ? performance.now() : Date.now());

/**
 * The built-in adapter's run: the shared step loop (`runSteps`) with one step
 * as one `promptStreaming` on the conversation's session, holding the
 * conversation so far (conversation-sessions.ts): only what is new is sent,
 * with a `responseConstraint` that admits an answer or calls of the offered
 * tools (response-constraint.ts). The answer streams to the person as it is
 * written; the calls are read once the reply is whole and run one at a time
 * by the loop. The closing summary after `maxSteps` may only answer.
 */
export function runBuiltInSteps(req: AgentRunRequest, context: BuiltInRunContext): AsyncGenerator<AgentStreamPart> {
  const instructions = req.agent?.instructions ?? [];
  return runSteps(req, {
    ...(context.maxSteps !== undefined && { maxSteps: context.maxSteps }),
    ...(context.newId && { newId: context.newId }),
    step: ({ messages, tools, summingUp, signal }) => forgetOnFailure(builtInStep({ messages: toRequestMessages(messages, Infinity), tools, summingUp, signal, instructions, context }), context.sessions),
    fail: (error) => (isAbortError(error) ? { type: "finish", reason: "aborted" } : { type: "error", ...describeBuiltInError(error, "run") }),
  });
}

/**
 * A step that failed (not stopped) may leave its sessions unusable (a
 * destroyed or crashed model): the next run starts from fresh ones.
 */
async function* forgetOnFailure(step: AsyncGenerator<StepPart>, sessions: ConversationSessions): AsyncGenerator<StepPart> {
  try {
    for await (const part of step) {
      if (part.type === "error") sessions.clear();
      yield part;
    }
  } catch (error) {
    if (!isAbortError(error)) sessions.clear();
    throw error;
  }
}

interface StepInput {
  messages: ReturnType<typeof toRequestMessages>;
  tools: ToolDescriptor[];
  summingUp: boolean;
  signal: AbortSignal;
  instructions: readonly string[];
  context: BuiltInRunContext;
}

async function* builtInStep({ messages, tools, summingUp, signal, instructions, context }: StepInput): AsyncGenerator<StepPart> {
  const prepared = await context.sessions.prepare({
    conversationId: context.conversationId,
    // The tools at the conversation's first step go in the base session; later changes come as notes.
    systemPrompt: buildSystemPrompt(instructions, tools),
    conversation: encodeConversation(messages),
    tools,
    notes: (known) => [toolChangeNote(known, tools), summingUp ? SUMMING_UP_NOTE : undefined].filter((note): note is string => note !== undefined),
    signal,
  });
  const { session } = prepared;
  const input: PromptApiMessage[] = prepared.input.length > 0 ? prepared.input : [{ role: "user", content: "Continue." }];
  let constraint = buildResponseConstraint(tools, { summingUp });
  context.onHeld(constraint.held);
  const cached = session.contextUsage;
  const inputTokens = await session.measureContextUsage(input, { signal });
  const started = now();
  let firstChunkAt: number | undefined;
  let lineShown = false;
  const overflowLine = function* (): Generator<StepPart> {
    if (lineShown || !(prepared.trimmed || prepared.overflowed())) return;
    lineShown = true;
    yield { type: "text-delta", delta: `${OVERFLOW_LINE}\n\n` };
  };

  let text = "";
  let streamed = "";
  for (let attempt = 0; ; attempt++) {
    const reader = createAnswerStreamReader();
    text = "";
    try {
      // The schema is not sent as input: the system prompt says the format in words (the explainer's advice).
      const stream = session.promptStreaming(input, { responseConstraint: constraint.schema, omitResponseConstraintInput: true, signal });
      for await (const chunk of stream as unknown as AsyncIterable<string>) {
        firstChunkAt ??= now();
        text += chunk;
        const delta = reader.push(chunk);
        if (delta !== "") {
          yield* overflowLine();
          streamed += delta;
          yield { type: "text-delta", delta };
        }
      }
      break;
    } catch (error) {
      if (signal.aborted || isAbortError(error)) throw abortError();
      // A schema the browser cannot express: once, with every tool held to its object shape.
      if (nameOf(error) === "NotSupportedError" && attempt === 0 && text === "" && !summingUp && tools.length > 0) {
        constraint = buildResponseConstraint(tools, { holdAll: true });
        context.onHeld(constraint.held);
        continue;
      }
      throw error;
    }
  }
  if (signal.aborted) throw abortError();
  yield* overflowLine();

  const output = await readStepOutput(text, tools);
  if (output.kind === "unreadable") {
    yield { type: "error", error: "The browser's built-in model wrote a reply that could not be read. Try again, or use another model.", code: "generation_failed" };
    return;
  }
  const reply = output.kind === "answer" ? assistantContent(output.answer, []) : assistantContent("", output.parts.map((part) => ({ name: part.name, input: part.type === "tool-call" ? part.input : part.inputText })));
  prepared.commit({ role: "assistant", content: reply });
  if (output.kind === "calls") yield* output.parts;
  // The reader streams every answer whole; should a reply it could not follow parse, the rest is said here.
  else if (output.answer !== streamed && output.answer.startsWith(streamed)) yield { type: "text-delta", delta: output.answer.slice(streamed.length) };

  const promptTokens = cached + inputTokens;
  const end = now();
  const outputTokens = Math.max(0, session.contextUsage - promptTokens);
  yield {
    type: "usage",
    usage: {
      promptTokens,
      cachedPromptTokens: cached,
      outputTokens,
      ...(firstChunkAt !== undefined && { timeToFirstTokenMs: firstChunkAt - started }),
      ...(firstChunkAt !== undefined && end > firstChunkAt && outputTokens > 0 && { decodeTokensPerSecond: (outputTokens * 1000) / (end - firstChunkAt) }),
    },
  };
  yield { type: "finish", reason: output.kind === "calls" ? "tool-calls" : "stop" };
}
