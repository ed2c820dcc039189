import type { ToolOutput } from "../core/tool-output.js";
import type { WebTool } from "../core/define-web-tool.js";
import type { AgentAdapter } from "../session/agent-adapter.js";
import type { AgentMessage } from "../session/agent-message.js";
import type { ToolCallState } from "../session/tool-call-state.js";
import type { ToolDescriptor } from "../session/tool-descriptor.js";
import type { ConfirmTool, ConfirmToolsPolicy } from "../session/tool-policy.js";

/** A function that picks the agent's tools from the page's current descriptors. */
export type ToolFilter = (tools: ToolDescriptor[]) => ToolDescriptor[];

/** What `defineWebAgent` takes. */
export interface WebAgentConfig {
  /** 1 to 64 of `a-z A-Z 0-9 _ . -`; unique across the tree of agents. */
  id: string;
  /** For a sub-agent: what it does, in one sentence. Default `"Hand a task to the <id> agent."` */
  description?: string;
  /** What the site is and how its tools fit together. At least one non-empty line. */
  instructions: string | readonly string[];
  /** Which page tools the agent may use: ids and `defineWebTool` tools, or a filter. Default: every tool. */
  tools?: readonly (string | WebTool)[] | ToolFilter;
  /** Sub-agents, each from `defineWebAgent`. Default `[]`. */
  agents?: readonly WebAgent[];
  /** A `"<provider>/<model>"` id the server resolves. Default: the handler's model. */
  model?: string;
  /** Model steps per user message: a positive integer. Default: the adapter's, then the handler's. */
  maxSteps?: number;
}

/** What `agent.invoke` takes. */
export interface WebAgentInvokeOptions {
  /** What runs the model. Default: one shared `createCloudAdapter()`. */
  adapter?: AgentAdapter;
  /** Aborting stops the run; `invoke` then rejects with an `AbortError`. */
  signal?: AbortSignal;
  /** Called whenever a tool call starts, parks on the person's confirmation, or ends. */
  onStep?: (step: WebAgentStep) => void;
  /** Which calls the tool policy holds, as `useAgentSession`'s. Default `"consequential"`. */
  confirmTools?: ConfirmToolsPolicy;
  /** Answers a held call: `true` runs it; `false` or `undefined` declines it (no chat to ask in). Default: not set (held calls are declined). */
  confirmTool?: ConfirmTool;
}

/** One tool call made during `agent.invoke`. */
export interface WebAgentStep {
  id: string;
  /** The tool's name; `delegate_to_<id>` for a hand-off. */
  tool: string;
  input: unknown;
  state: ToolCallState;
  output?: ToolOutput;
  error?: string;
  prompt?: string;
  /** The sub-agent that made the call, when it was not the agent itself. */
  agent?: string;
}

/** What `agent.invoke` resolves to. */
export interface WebAgentResult {
  /** The text of the agent's replies in this run, joined. */
  text: string;
  /** Every tool call, in order, a sub-agent's included. */
  steps: WebAgentStep[];
  /** The user's message, then the agent's replies with their tool calls. */
  messages: AgentMessage[];
}

/** A frozen agent from `defineWebAgent`. */
export interface WebAgent {
  readonly id: string;
  readonly description: string;
  readonly instructions: readonly string[];
  /** Tool ids, or the filter function; `undefined` for every page tool. */
  readonly tools?: readonly string[] | ToolFilter;
  readonly agents: readonly WebAgent[];
  readonly model?: string;
  readonly maxSteps?: number;
  /** Run the agent on one message with no chat on the page (browser only). */
  invoke(text: string, options?: WebAgentInvokeOptions): Promise<WebAgentResult>;
}
