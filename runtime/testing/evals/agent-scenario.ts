import type { WebAgent } from "../../agent/web-agent.js";
import type { WebTool } from "../../core/define-web-tool.js";

/** How a scenario's model generates: applied where `evaluateAgent` builds the adapter (`models`). */
export interface ScenarioGeneration {
  /** Sampling temperature; 0 is greedy. Default: the engine's (greedy). */
  temperature?: number;
  /** Tokens per model step at most. Default: the engine's. */
  maxNewTokens?: number;
  /** Qwen's thinking block. Default: the engine's. */
  enableThinking?: boolean;
}

/**
 * A tool call a scenario expects or forbids: the tool's name, and what its
 * input must hold, either a partial match (every key given must be equal,
 * deeply; other keys are free) or a predicate over the whole input.
 */
export interface ExpectedCall {
  /** The tool's name, e.g. `"add_to_cart"`. */
  tool: string;
  /** A partial match, or a predicate. Default: any input. */
  input?: Readonly<Record<string, unknown>> | ((input: unknown) => boolean);
}

/** How a scenario answers the tool policy's confirmation prompts: the same for every tool, or by tool name (unlisted tools: `"allow"`). */
export type ScenarioConfirm = "allow" | "decline" | Readonly<Record<string, "allow" | "decline">>;

/** What `defineAgentScenario` takes. */
export interface AgentScenarioConfig {
  /** The scenario's name in the report: 1 to 64 of a-z A-Z 0-9 _ . - */
  id: string;
  /** One line on what it checks. Default: the id. */
  title?: string;
  /** The person's message, or messages, each sent once the previous reply is done, in one conversation. */
  messages: string | readonly string[];
  /** The agent to run. Default: `evaluateAgent`'s `agent`. */
  agent?: WebAgent;
  /**
   * The tools the run uses instead of the page's: tool doubles from
   * `defineWebTool`, registered on the page for each run and removed after
   * it. A function is called once per run, so each run starts from fresh
   * state. Default: the tools already on the page.
   */
  tools?: readonly WebTool[] | (() => readonly WebTool[]);
  /** The calls that must happen, in this order (other calls may come between them). Default none. */
  calls?: readonly ExpectedCall[];
  /** Calls that must not happen: a tool name, or a call with an input match. Default none. */
  forbidden?: readonly (string | ExpectedCall)[];
  /**
   * What the final answer (the reply's text after the last message) must
   * satisfy: a RegExp it must match, a string it must contain (case
   * insensitive), or a predicate. Default: any answer.
   */
  answer?: RegExp | string | ((answer: string) => boolean);
  /** How confirmation prompts are answered. Default `"allow"`. */
  confirm?: ScenarioConfirm;
  /** Sampled repetitions: each run is a fresh conversation. A positive integer, default 1. */
  runs?: number;
  /** The generation settings (see {@link ScenarioGeneration}). Default: the engine's. */
  generation?: ScenarioGeneration;
}

/** A scenario from `defineAgentScenario`: frozen data, defaults filled in. */
export interface AgentScenario {
  readonly id: string;
  readonly title: string;
  readonly messages: readonly string[];
  readonly agent: WebAgent | undefined;
  readonly tools: readonly WebTool[] | (() => readonly WebTool[]) | undefined;
  readonly calls: readonly ExpectedCall[];
  readonly forbidden: readonly ExpectedCall[];
  readonly answer: RegExp | string | ((answer: string) => boolean) | undefined;
  readonly confirm: ScenarioConfirm;
  readonly runs: number;
  readonly generation: ScenarioGeneration | undefined;
}
