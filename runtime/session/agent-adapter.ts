import type { WebAgent } from "../agent/web-agent.js";
import type { ToolOutput } from "../core/tool-output.js";
import type { AgentMessage } from "./agent-message.js";
import type { AgentErrorCode, AgentStreamPart } from "./agent-stream-part.js";
import type { ToolDescriptor } from "./tool-descriptor.js";

/** Whether an adapter can run right now. The composer explains any state but `ready`. */
export type AdapterStatus =
  | { state: "ready" }
  | { state: "unavailable"; reason: string }
  | { state: "needs-download"; bytes?: number; note?: string }
  | { state: "downloading"; progress: number }
  /** `stage: "starting"`: a model read from this device is being started (no progress of its own). */
  | { state: "loading"; progress?: number; stage?: "starting" }
  /** `code`, when set, lets the widget offer the right next step (the codes of `RUN_ERROR_CODES`). */
  | { state: "error"; error: string; code?: AgentErrorCode };

/** One model in the picker. */
export interface ModelChoice {
  /** The id `selectModel` takes. */
  id: string;
  /** Short name, for example "Qwen3 0.6B". */
  label: string;
  /** One sentence on when to pick it. */
  brief: string;
  /** Download size in bytes, when known. */
  bytes?: number;
  /** Already on this device: no download. */
  cached?: boolean;
  /** The adapter's default. */
  recommended?: boolean;
  /** The one in use. */
  selected?: boolean;
}

/** A tool call an adapter hands to `req.callTool`. */
export interface ToolCallRequest {
  id: string;
  name: string;
  input: unknown;
}

/** What an adapter gets for one run: one user message, possibly many model steps. */
export interface AgentRunRequest {
  /** The conversation so far, ending with the new user message (on Retry, with the last finished tool call). */
  messages: AgentMessage[];
  /**
   * The page's tools right now, already filtered through `agent`. A getter:
   * read it fresh before every model call.
   */
  readonly tools: ToolDescriptor[];
  /** Aborts when the person presses Stop. */
  signal: AbortSignal;
  /** Run a tool on the page, cursor and all. Never rejects: failures come back as `isError` results. */
  callTool: (call: ToolCallRequest) => Promise<ToolOutput>;
  /** The page's agent, when set. */
  agent?: WebAgent;
  /**
   * The conversation as the session holds it now: `messages`, then every part
   * this run has yielded so far, each applied once, by the session's own
   * reducer. Set by the session (and passed on by the fallback adapter); an
   * adapter that needs its run's conversation reads it here rather than
   * reducing its parts a second time, and keeps its own copy only when run
   * without one (`runtime/adapters/run-transcript.ts`).
   */
  conversation?: () => AgentMessage[];
}

/** An agent the chat can talk to: the model and tool loop behind a stream of parts. */
export interface AgentAdapter {
  /** Stable id; the widget remembers the chosen adapter by it. */
  readonly id: string;
  /** Shown in the adapter switcher. */
  readonly label: string;
  /** Handle one user message: yield stream parts and call `req.callTool()` for each tool call. */
  run(req: AgentRunRequest): AsyncIterable<AgentStreamPart>;
  /** Current availability. Default: always ready. */
  status?(): AdapterStatus;
  /** Called on status changes. Returns an unsubscribe function. */
  subscribe?(listener: () => void): () => void;
  /** Opt-in heavy setup (a model download), started by the person's click. */
  prepare?(signal?: AbortSignal): Promise<void>;
  /** The models the person can pick from. */
  models?(): readonly ModelChoice[];
  /** Switch to one of `models()`. Rejects while a reply or a download is in progress. */
  selectModel?(id: string): Promise<void>;
}
