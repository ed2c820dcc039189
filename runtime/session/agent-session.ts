import type { StepUsage } from "./agent-stream-part.js";
import type { WebAgent } from "../agent/web-agent.js";
import type { AdapterStatus } from "./agent-adapter.js";
import type { AgentMessage } from "./agent-message.js";
import type { SessionError } from "./session-error.js";
import type { ToolDescriptor } from "./tool-descriptor.js";
import type { ConfirmTool, ConfirmToolsPolicy } from "./tool-policy.js";

/** A conversation with one adapter about the current page (what `useAgentSession` returns). */
export interface AgentSession {
  /** The conversation. */
  messages: AgentMessage[];
  /** Whether a run is streaming, or the last one failed. */
  status: "idle" | "streaming" | "error";
  /** The last run's failure: `{ message, code? }`. */
  error: SessionError | undefined;
  /** The last model step's usage (tokens, time to first token, decode speed), when the adapter reports it: the on-device one does. */
  usage: StepUsage | undefined;
  /** What the model sees right now: the page's tools through the agent's filter, plus its delegate tools. */
  tools: ToolDescriptor[];
  /** The adapter's status, kept current through its `subscribe()`. */
  adapterStatus: AdapterStatus;
  /** The agent in use. */
  agent: WebAgent | undefined;
  /** Trim `text` and start a run. Ignored when empty or while streaming. */
  send: (text: string) => void;
  /** Abort the run; open tool calls become cancelled. */
  stop: () => void;
  /** Resume the interrupted turn from its last finished tool call. Ignored while streaming or with no user message. */
  retry: () => void;
  /** Stop and start a new conversation. */
  reset: () => void;
}

/** What `useAgentSession` and `createAgentSession` take besides the adapter. */
export interface UseAgentSessionOptions {
  /** sessionStorage key for the conversation; `false` keeps it in memory only. Default `"web-agents:chat"`. */
  storageKey?: string | false;
  /** The page's agent (`defineWebAgent`). */
  agent?: WebAgent;
  /**
   * Which page tool calls wait for the person's Allow in the chat, from the
   * tools' annotations: `"consequential"` (`consequentialHint: true`, or
   * MCP's `destructiveHint: true`), `"destructive"` (the same, by MCP's
   * name), `"unannotated"` (also tools that say none of `readOnlyHint`,
   * `consequentialHint`, `destructiveHint`), `"all"` (every tool not
   * `readOnlyHint: true`). Whatever it says, after a result of an
   * `untrustedContentHint` tool every later call of the turn that is not
   * `readOnlyHint` waits too. Default `"consequential"`.
   */
  confirmTools?: ConfirmToolsPolicy;
  /**
   * Answers a held call before the chat asks: `true` runs it, `false`
   * declines it, `undefined` asks the person (Allow / Don't allow). For a
   * custom UI, or a tool that confirms itself with `waitForClick`. Default: not set.
   */
  confirmTool?: ConfirmTool;
}
