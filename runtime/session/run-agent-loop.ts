import { toolErrorPart } from "./tool-error-part.js";
import { delegateToolName, isDelegateTool } from "../agent/agent-id.js";
import { selectTools } from "../agent/select-tools.js";
import type { WebAgent } from "../agent/web-agent.js";
import { callModelContextTool } from "../core/call-model-context-tool.js";
import { readPageTools } from "../core/read-page-tools.js";
import { AFTER_CALL_SETTLE, TOOLS_SETTLE, waitForToolsToSettle } from "../core/settle-tools.js";
import { toolErrorOutput } from "../core/tool-error-output.js";
import { NAVIGATION_WAIT_MS, watchNavigation } from "../core/watch-navigation.js";
import type { ToolOutput } from "../core/tool-output.js";
import type { AgentAdapter, AgentRunRequest, ToolCallRequest } from "./agent-adapter.js";
import type { AgentMessage } from "./agent-message.js";
import type { AgentStreamPart } from "./agent-stream-part.js";
import { gateToolCall, type ToolGate } from "./gate-tool-call.js";
import { readToolHints } from "./tool-policy.js";
import { markUntrustedContent, untrustedContentSource } from "../core/untrusted-content.js";
import { LIMITS } from "./limits.js";
import { parseStreamPart } from "./parse-stream-part.js";
import type { SessionAction } from "./session-reducer.js";
import type { ToolDescriptor } from "./tool-descriptor.js";

/** What one run shares across its top-level loop and its sub-agents' loops. */
export interface RunContext {
  adapter: AgentAdapter;
  runId: string;
  signal: AbortSignal;
  dispatch: (action: SessionAction) => void;
  /** False once a newer run (or Stop) superseded this one. */
  isCurrent: () => boolean;
  /** Told whenever the tools the model sees are read again. */
  onTools?: (tools: ToolDescriptor[]) => void;
  /** The session's conversation at `path` now (the top level, or a sub-agent's nested run): what the adapter's `req.conversation()` returns. */
  conversation?: (path: readonly string[]) => AgentMessage[];
  /** The tool policy: which calls wait for the person's confirmation, and who answers. Default: `consequential` tools, asked in the chat. */
  gate?: ToolGate;
  /**
   * What the turn has read, shared by its sub-agents: `untrustedContent` once
   * a result of an `untrustedContentHint` tool came back (every later call
   * not `readOnlyHint` then waits for the person). Default: a fresh record.
   */
  turn?: { untrustedContent: boolean };
}

/** How one loop (top level or a sub-agent's) ended. */
export type LoopEnd = Extract<AgentStreamPart, { type: "finish" } | { type: "error" }>;

const messageOf = (error: unknown) =>
  error instanceof Error ? error.message : typeof error === "string" ? error : "The assistant failed.";

// As the page wrote them: an on-device model's worker neutralizes them for its template (worker/step-format.ts).
async function readTools(agent: WebAgent | undefined): Promise<ToolDescriptor[]> {
  return selectTools(agent, await readPageTools());
}

/**
 * Runs `adapter.run` once for `messages` and applies each part at `path`
 * (empty for the top level, delegate call ids for a sub-agent). It waits for
 * the page's tools to settle first and after every call, and runs
 * `delegate_to_<id>` calls as nested loops on the same adapter. Never throws:
 * an adapter that throws, sends a malformed part or stops without a last
 * part ends in an `error` or `finish` part like any other.
 */
export async function runAgentLoop(
  context: RunContext,
  agent: WebAgent | undefined,
  messages: AgentMessage[],
  path: readonly string[] = [],
): Promise<LoopEnd> {
  const { adapter, runId, signal, dispatch } = context;
  const apply = (part: AgentStreamPart) => {
    if (context.isCurrent()) dispatch({ type: "part", runId, part, path });
  };
  const refresh = async (timing: typeof TOOLS_SETTLE) => {
    await waitForToolsToSettle({ ...timing, signal });
    tools = await readTools(agent);
    if (path.length === 0) context.onTools?.(tools);
  };

  let tools: ToolDescriptor[] = [];
  const openCalls = new Set<string>();
  const knownMessages = new Set<string>();
  let end: LoopEnd | undefined;

  // A retried turn (resumable) starts from its finished calls: untrusted content among them still counts.
  const turn = (context.turn ??= { untrustedContent: turnReadUntrustedContent(messages) });
  const callTool = async (call: ToolCallRequest): Promise<ToolOutput> => {
    if (signal.aborted) return toolErrorOutput("cancelled", "Stopped before the tool ran.");
    if (isDelegateTool(call.name)) return runDelegate(context, agent, call, path);
    // The tool policy first (annotations, and what the turn has read): a held call runs only once the person allows it.
    const hints = await readToolHints(call.name);
    const held = await gateToolCall(call, hints, context.gate ?? {}, signal, turn.untrustedContent);
    if (held) return held;
    const navigation = watchNavigation();
    try {
      let output = await callModelContextTool(call, { signal });
      if (hints.untrustedContentHint === true) {
        // From here on the model may be following that content: the gate holds what it does next.
        turn.untrustedContent = true;
        output = markUntrustedContent(output, call.name);
      }
      // In the conversation now, before the settle below: a tool that navigates ends the page within
      // it, and the next page goes on from this result (turn-carry.ts), never calling it again.
      // The adapter's own tool-result part for it applies the same again.
      if (!output.isError) apply({ type: "tool-result", id: call.id, output });
      await refresh(AFTER_CALL_SETTLE);
      // A full-page navigation the call started: the model's next step belongs to the next page,
      // however slow it is to come, not to this one (where a held call would end the turn).
      await navigation.settled({ maxMs: NAVIGATION_WAIT_MS, signal });
      return output;
    } finally {
      navigation.stop();
    }
  };

  try {
    await refresh(TOOLS_SETTLE);
    const request: AgentRunRequest = {
      messages,
      get tools() {
        return tools;
      },
      signal,
      callTool,
      ...(agent && { agent }),
      ...(context.conversation && { conversation: () => context.conversation!(path) }),
    };
    for await (const raw of adapter.run(request)) {
      if (!context.isCurrent()) break;
      let part: AgentStreamPart;
      try {
        part = parseStreamPart(raw);
        checkOrder(part, knownMessages, openCalls);
      } catch (error) {
        end = { type: "error", error: `The "${adapter.id}" adapter sent a malformed part: ${messageOf(error)}` };
        break;
      }
      if (part.type === "finish" || part.type === "error") {
        end = part;
        break;
      }
      apply(part);
    }
  } catch (error) {
    end = signal.aborted ? { type: "finish", reason: "aborted" } : { type: "error", error: messageOf(error) };
  }
  // An adapter that ends its stream without a last part has finished.
  end ??= { type: "finish", reason: signal.aborted ? "aborted" : "stop" };
  for (const id of openCalls) {
    apply(toolErrorPart(id, "Error [cancelled]: The run ended before this call reported a result."));
  }
  apply(end);
  return end;
}

/** Whether the turn in `messages` (after its last user message) has read a result marked as untrusted content. */
function turnReadUntrustedContent(messages: readonly AgentMessage[]): boolean {
  const lastUser = messages.map((message) => message.role).lastIndexOf("user");
  return messages
    .slice(lastUser + 1)
    .some((message) => message.parts.some((part) => part.type === "tool" && untrustedContentSource(part.output) !== undefined));
}

/** Every text and tool part names a message the adapter started, and every result a call it made. */
function checkOrder(part: AgentStreamPart, knownMessages: Set<string>, openCalls: Set<string>): void {
  switch (part.type) {
    case "message-start":
      knownMessages.add(part.messageId);
      return;
    case "text-delta":
    case "reasoning":
    case "tool-call":
      if (!knownMessages.has(part.messageId)) {
        throw new TypeError(`"${part.type}" names message ${part.messageId}, which has no message-start.`);
      }
      if (part.type === "tool-call") {
        if (openCalls.has(part.id)) throw new TypeError(`tool call id ${part.id} is used twice.`);
        openCalls.add(part.id);
      }
      return;
    case "tool-result":
    case "tool-error":
      if (!openCalls.delete(part.id)) throw new TypeError(`"${part.type}" for ${part.id}, which is not an open tool call.`);
      return;
  }
}

/**
 * A `delegate_to_<id>` call: the sub-agent's own loop on the same adapter,
 * nested under the call, seeing only the task and context, bounded by its
 * own `maxSteps` (the adapter reads it from `req.agent`), not by the page
 * tool timeout.
 */
async function runDelegate(
  context: RunContext,
  parent: WebAgent | undefined,
  call: ToolCallRequest,
  path: readonly string[],
): Promise<ToolOutput> {
  const sub = parent?.agents.find((agent) => delegateToolName(agent.id) === call.name);
  if (!sub) return toolErrorOutput("unknown_tool", `No sub-agent answers ${call.name} here.`);
  if (path.length >= LIMITS.delegateDepth) {
    return toolErrorOutput("invalid_input", `Sub-agents may nest ${LIMITS.delegateDepth} deep at most.`);
  }
  const input = call.input as { task?: unknown; context?: unknown } | null;
  if (typeof input?.task !== "string" || input.task.trim() === "") {
    return toolErrorOutput("invalid_input", `${call.name} needs { task: string, context?: string }.`);
  }
  if (input.context !== undefined && typeof input.context !== "string") {
    return toolErrorOutput("invalid_input", `${call.name}: context must be a string when given.`);
  }
  const text = input.context ? `${input.task}\n\nContext: ${input.context}` : input.task;
  const message: AgentMessage = { id: crypto.randomUUID(), role: "user", parts: [{ type: "text", text }] };
  const nestedPath = [...path, call.id];
  if (context.isCurrent()) {
    context.dispatch({ type: "nested-start", runId: context.runId, path: nestedPath, agentId: sub.id, message });
  }

  const transcript: AgentMessage[] = [message];
  const nestedContext: RunContext = {
    ...context,
    // Keep a copy of the nested run to answer the parent from.
    dispatch: (action) => {
      context.dispatch(action);
      if (action.type === "part" && action.path?.length === nestedPath.length) collect(transcript, action.part);
    },
  };
  const end = await runAgentLoop(nestedContext, sub, [message], nestedPath);
  if (end.type === "error") return toolErrorOutput("delegate_failed", `The ${sub.id} agent failed: ${end.error}`);
  if (end.reason === "aborted") return toolErrorOutput("cancelled", `The ${sub.id} agent was stopped.`);
  const answer = replyText(transcript);
  const note = end.reason === "max-steps" ? ` (it stopped at its step limit)` : "";
  return { content: [{ type: "text", text: answer ? answer + note : `The ${sub.id} agent finished without an answer${note}.` }] };
}

function collect(transcript: AgentMessage[], part: AgentStreamPart): void {
  if (part.type === "message-start") transcript.push({ id: part.messageId, role: "assistant", parts: [] });
  if (part.type === "text-delta") {
    // From the end, onto the last text part: a token costs the same however long the sub-agent's run.
    const message = transcript.findLast((candidate) => candidate.id === part.messageId);
    const last = message?.parts.at(-1);
    if (last?.type === "text") last.text += part.delta;
    else message?.parts.push({ type: "text", text: part.delta });
  }
}

/** The text of the assistant's replies, joined. */
export function replyText(messages: readonly AgentMessage[]): string {
  return messages
    .filter((message) => message.role === "assistant")
    .map((message) => message.parts.map((part) => (part.type === "text" ? part.text : "")).join(""))
    .filter((text) => text.trim() !== "")
    .join("\n\n")
    .trim();
}
