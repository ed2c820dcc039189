import type { AgentMessage, AgentPart, ToolPart } from "./agent-message.js";
import type { AgentStreamPart, StepUsage } from "./agent-stream-part.js";
import type { SessionError } from "./session-error.js";
import { toolErrorCode } from "./tool-error-part.js";

/** What the session holds. */
export interface SessionState {
  messages: AgentMessage[];
  status: "idle" | "streaming" | "error";
  error?: SessionError;
  /** The run whose parts are applied; parts of any other run are dropped. */
  runId?: string;
  /** The last model step's usage, when the adapter reports it. */
  usage?: StepUsage;
}

/**
 * Every change to a session. `path` lists `delegate_to_<id>` call ids from
 * the top level down: a part with a path lands in that sub-agent's nested run.
 */
export type SessionAction =
  | { type: "send"; runId: string; message: AgentMessage }
  | { type: "retry"; runId: string; messages: AgentMessage[] }
  | { type: "part"; runId: string; part: AgentStreamPart; path?: readonly string[] }
  | { type: "nested-start"; runId: string; path: readonly string[]; agentId: string; message: AgentMessage }
  | { type: "tool-state"; runId: string; tool: string; callId?: string; state: "running" | "awaiting-confirmation"; prompt?: string }
  | { type: "stop" }
  | { type: "reset" }
  | { type: "restore"; messages: AgentMessage[] };

/** A `part` action: what an adapter's stream dispatches. */
export type PartAction = Extract<SessionAction, { type: "part" }>;

/**
 * `pending` and `next` as one action when both are text-deltas of one run,
 * message and nested path (their deltas joined), else undefined. Applying it
 * is applying the two in turn: the second only extends the text part the
 * first made or extended. The session and the run transcript hold streamed
 * text back with it, so a part costs the same in a long conversation.
 */
export function joinTextDeltas(pending: PartAction, next: SessionAction): PartAction | undefined {
  if (next.type !== "part" || next.runId !== pending.runId) return undefined;
  const { part } = pending;
  if (part.type !== "text-delta" || next.part.type !== "text-delta" || next.part.messageId !== part.messageId) return undefined;
  const path = pending.path ?? [];
  const nextPath = next.path ?? [];
  if (nextPath.length !== path.length || nextPath.some((id, index) => id !== path[index])) return undefined;
  return { ...pending, part: { ...part, delta: part.delta + next.part.delta } };
}

export const initialSessionState: SessionState = Object.freeze({ messages: [], status: "idle" }) as SessionState;

const isOpen = (part: AgentPart): boolean =>
  part.type === "tool" && (part.state === "running" || part.state === "awaiting-confirmation");

/**
 * The session's state machine: pure, so the store, the tests and a custom UI
 * share one definition of what each part does to the conversation.
 */
export function sessionReducer(state: SessionState, action: SessionAction): SessionState {
  switch (action.type) {
    case "send":
      return { messages: [...state.messages, action.message], status: "streaming", runId: action.runId };
    case "retry":
      return { messages: action.messages, status: "streaming", runId: action.runId };
    case "restore":
      return { messages: action.messages.map(cancelOpenCalls), status: "idle" };
    case "reset":
      return initialSessionState;
    case "stop":
      if (state.status !== "streaming") return state;
      return { messages: markStopped(state.messages.map(cancelOpenCalls), state.runId), status: "idle" };
    case "nested-start":
      if (action.runId !== state.runId) return state;
      return {
        ...state,
        messages: updateTool(state.messages, action.path, (tool) => ({
          ...tool,
          agent: { id: action.agentId, messages: [action.message] },
        })),
      };
    case "tool-state": {
      if (action.runId !== state.runId) return state;
      const messages = markOpenCall(state.messages, action);
      return messages ? { ...state, messages } : state;
    }
    case "part":
      if (action.runId !== state.runId) return state;
      return applyPart(state, action.part, action.path ?? []);
  }
}

/**
 * Marks the turn the person stopped: its assistant message, or, stopped
 * before the reply's first part (while "Working…"), a new empty one, so the
 * turn leaves a trace rather than a question with no answer.
 */
function markStopped(messages: AgentMessage[], runId: string | undefined): AgentMessage[] {
  const last = messages.at(-1);
  if (!last) return messages;
  if (last.role === "assistant") return [...messages.slice(0, -1), { ...last, stopped: true }];
  return [...messages, { id: `${runId ?? last.id}-stopped`, role: "assistant", parts: [], stopped: true }];
}

function applyPart(state: SessionState, part: AgentStreamPart, path: readonly string[]): SessionState {
  const nested = path.length > 0;
  switch (part.type) {
    case "finish":
      if (nested) return state;
      return {
        messages: part.reason === "aborted" ? state.messages.map(cancelOpenCalls) : state.messages,
        status: "idle",
        ...(state.usage && { usage: state.usage }),
      };
    case "error":
      if (nested) return state;
      return {
        messages: state.messages.map(cancelOpenCalls),
        status: "error",
        error: part.code ? { message: part.error, code: part.code } : { message: part.error },
      };
    case "step-finish":
      // A sub-agent's steps are its own; the top level's last step is the one to show.
      return part.usage && path.length === 0 ? { ...state, usage: part.usage } : state;
    default:
      return { ...state, messages: updateMessagesAt(state.messages, path, (messages) => applyMessagePart(messages, part)) };
  }
}

function applyMessagePart(messages: AgentMessage[], part: AgentStreamPart): AgentMessage[] {
  switch (part.type) {
    case "message-start":
      if (messages.some((message) => message.id === part.messageId)) return messages;
      return [...messages, { id: part.messageId, role: "assistant", parts: [] }];
    case "text-delta":
      return updateMessage(messages, part.messageId, (parts) => {
        const last = parts.at(-1);
        return last?.type === "text"
          ? [...parts.slice(0, -1), { type: "text", text: last.text + part.delta }]
          : [...parts, { type: "text", text: part.delta }];
      });
    case "reasoning":
      return updateMessage(messages, part.messageId, (parts) => [
        ...parts,
        { type: "reasoning", text: part.text, ...(part.providerMetadata && { providerMetadata: part.providerMetadata }) },
      ]);
    case "tool-call":
      return updateMessage(messages, part.messageId, (parts) => [
        ...parts,
        {
          type: "tool",
          id: part.id,
          name: part.name,
          input: part.input,
          state: "running",
          ...(part.providerMetadata && { providerMetadata: part.providerMetadata }),
        },
      ]);
    case "tool-result":
      return updateToolIn(messages, part.id, ({ prompt: _prompt, error: _error, ...tool }) => ({
        ...tool,
        state: "done",
        output: part.output,
      }));
    case "tool-error": {
      const code = toolErrorCode(part);
      return updateToolIn(messages, part.id, ({ prompt: _prompt, output: _output, errorCode: _code, ...tool }) => ({
        ...tool,
        state: code === "cancelled" ? "cancelled" : "error",
        error: part.error,
        ...(code !== undefined && { errorCode: code }),
      }));
    }
    default:
      return messages;
  }
}

function updateMessage(messages: AgentMessage[], id: string, update: (parts: AgentPart[]) => AgentPart[]) {
  // From the end: a streamed part names the last message, so a long conversation costs nothing more per part.
  let index = messages.length - 1;
  while (index >= 0 && messages[index]!.id !== id) index--;
  if (index === -1) return messages;
  const next = messages.slice();
  next[index] = { ...messages[index]!, parts: update(messages[index]!.parts) };
  return next;
}

function updateToolIn(messages: AgentMessage[], id: string, update: (tool: ToolPart) => ToolPart): AgentMessage[] {
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index]!;
    const partIndex = message.parts.findIndex((part) => part.type === "tool" && part.id === id);
    if (partIndex === -1) continue;
    const parts = message.parts.slice();
    parts[partIndex] = update(parts[partIndex] as ToolPart);
    const next = messages.slice();
    next[index] = { ...message, parts };
    return next;
  }
  return messages;
}

/** Applies `update` to the messages of the nested run at `path` (the top level for an empty path). */
function updateMessagesAt(
  messages: AgentMessage[],
  path: readonly string[],
  update: (messages: AgentMessage[]) => AgentMessage[],
): AgentMessage[] {
  if (path.length === 0) return update(messages);
  return updateTool(messages, path, (tool) =>
    tool.agent ? { ...tool, agent: { ...tool.agent, messages: update(tool.agent.messages) } } : tool,
  );
}

/** Applies `update` to the tool part whose id ends `path`, descending through nested runs. */
function updateTool(
  messages: AgentMessage[],
  path: readonly string[],
  update: (tool: ToolPart) => ToolPart,
): AgentMessage[] {
  const [head, ...rest] = path;
  if (head === undefined) return messages;
  return updateToolIn(messages, head, (tool): ToolPart => {
    if (rest.length === 0) return update(tool);
    if (!tool.agent) return tool;
    return { ...tool, agent: { ...tool.agent, messages: updateTool(tool.agent.messages, rest, update) } };
  });
}

/**
 * Marks the open call with the action's `callId`, at any depth. Without a
 * `callId` (a tool that knows none), it marks the latest open call of `tool`
 * (the deepest one, inside a running sub-agent first), as a guess. Returns
 * undefined when no open call matches: an event of another call, or of
 * another chat's.
 */
function markOpenCall(
  messages: AgentMessage[],
  action: Extract<SessionAction, { type: "tool-state" }>,
): AgentMessage[] | undefined {
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index]!;
    for (let partIndex = message.parts.length - 1; partIndex >= 0; partIndex--) {
      const part = message.parts[partIndex]!;
      if (part.type !== "tool" || !isOpen(part)) continue;
      let replacement: ToolPart | undefined;
      const nested = part.agent && markOpenCall(part.agent.messages, action);
      if (nested) replacement = { ...part, agent: { ...part.agent!, messages: nested } };
      else if (action.callId !== undefined ? part.id === action.callId : part.name === action.tool) {
        const { prompt: _prompt, ...rest } = part;
        replacement =
          action.state === "awaiting-confirmation"
            ? { ...rest, state: action.state, ...(action.prompt !== undefined && { prompt: action.prompt }) }
            : { ...rest, state: action.state };
      }
      if (!replacement) continue;
      const parts = message.parts.slice();
      parts[partIndex] = replacement;
      const next = messages.slice();
      next[index] = { ...message, parts };
      return next;
    }
  }
  return undefined;
}

/** Open calls (running or parked) become cancelled, nested runs included. */
export function cancelOpenCalls(message: AgentMessage): AgentMessage {
  if (!message.parts.some((part) => part.type === "tool" && (isOpen(part) || part.agent))) return message;
  return {
    ...message,
    parts: message.parts.map((part) => {
      if (part.type !== "tool") return part;
      const agent = part.agent && { ...part.agent, messages: part.agent.messages.map(cancelOpenCalls) };
      if (!isOpen(part)) return agent ? { ...part, agent } : part;
      const { prompt: _prompt, ...rest } = part;
      return { ...rest, state: "cancelled", error: "Error [cancelled]: Stopped before it finished.", errorCode: "cancelled", ...(agent && { agent }) };
    }),
  };
}
