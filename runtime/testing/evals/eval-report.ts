import type { DeviceCapabilities } from "../../../models/device-capabilities.js";
import type { ToolCallState } from "../../session/tool-call-state.js";
import type { ScenarioConfirm, ScenarioGeneration } from "./agent-scenario.js";

/**
 * Why a run failed, as data. The model's: `wrong-tool`, `wrong-input`,
 * `missing-call`, `forbidden-call`, `answer`. The site's own scenario code:
 * `site-error` (an answer or input predicate threw, a tool double threw, the
 * doubles could not be registered). Neither's: `timeout` (the run was
 * stopped before it finished: slow, not wrong) and `error` (the run failed:
 * a model that would not load, a network error).
 */
export type EvalFailureKind = "wrong-tool" | "wrong-input" | "missing-call" | "forbidden-call" | "answer" | "site-error" | "timeout" | "error";

/** One reason a run failed. */
export interface EvalFailure {
  kind: EvalFailureKind;
  /** The sentence a person reads. */
  message: string;
  /** For a call: which expected call (0-based). */
  call?: number;
  /** What the scenario wanted, in words. */
  expected?: string;
  /** What happened, in words. */
  actual?: string;
  /** For `error` and `site-error`: the error's code (`load_failed`, `not_cached`, `duplicate_tool`…), when it had one. */
  code?: string;
}

/** One tool call a run made. */
export interface EvalCall {
  tool: string;
  input: unknown;
  state: ToolCallState;
  /** The error's text, when the call failed (`Error [invalid_input]: …`, `Error [declined]: …`). */
  error?: string;
  /** The sub-agent that made the call, when not the agent itself. */
  agent?: string;
}

/** One model step's generation, as the adapter reported it (the on-device ones do; the cloud reports none). */
export interface EvalStep {
  promptTokens: number;
  cachedPromptTokens?: number;
  outputTokens: number;
  timeToFirstTokenMs?: number;
  decodeTokensPerSecond?: number;
  /** Tool calls the on-device constraint changed in this step (its mask refused the token the model found likeliest). */
  repairedCalls?: number;
}

/** One sampled run of a scenario. */
export interface EvalRun {
  passed: boolean;
  /** Empty when it passed. */
  failures: EvalFailure[];
  calls: EvalCall[];
  /** The reply's text after the last message. */
  answer: string;
  /** Model steps the adapter ran (its `step-finish` parts), with their usage when reported. */
  steps: EvalStep[];
  tokensIn: number;
  tokensOut: number;
  /** Calls the tool policy held for confirmation, and how each was answered. */
  confirmations: { tool: string; answer: "allow" | "decline" }[];
  /** Calls that came back as `invalid_input` (the model's arguments did not fit the schema). */
  invalidCalls: number;
  /**
   * Calls the on-device tool-call constraint repaired: at some token its mask
   * refused the token the model found likeliest, so the call came out valid
   * where the model alone would have written it otherwise. Absent where no
   * step reported it (the cloud, web-llm, the browser's own model).
   */
  repairedCalls?: number;
  durationMs: number;
}

/** One scenario on one model. */
export interface EvalScenarioResult {
  scenario: string;
  runs: number;
  passed: number;
  /** The generation settings these runs had, as `evaluateAgent` set them (`models`); absent where the adapter used its own. */
  generation?: ScenarioGeneration;
  attempts: EvalRun[];
}

/** The model behind an adapter, as far as the evaluation knows it. */
export interface EvalModel {
  /** The catalog entry's id, else the adapter's id. */
  id: string;
  label: string;
  /** The adapter that ran it. */
  adapter: string;
  /** The download, in bytes, where known (an on-device model's selected variant). */
  bytes?: number;
  /** Where the files come from: the variant's repo and revision (`main` where none is pinned). */
  repo?: string;
  revision?: string;
  /** The variant: engine, device, dtype, format (`qwen3`, `qwen3.5`). */
  engine?: string;
  device?: string;
  dtype?: string;
  format?: string;
  /** `<entry>/<variant>`: stable across releases. */
  key?: string;
}

/** Every scenario on one model. */
export interface EvalModelResult {
  model: EvalModel;
  runs: number;
  passed: number;
  scenarios: EvalScenarioResult[];
  /** Medians over every step of every run, where reported. */
  medianTimeToFirstTokenMs?: number;
  medianDecodeTokensPerSecond?: number;
  /** The model could not be set up (download, load): no scenario ran. */
  error?: { message: string; code?: string };
}

/** A scenario as the report records it (its predicates cannot travel as JSON). */
export interface EvalScenarioSummary {
  id: string;
  title: string;
  agent?: string;
  messages: readonly string[];
  runs: number;
  calls: string[];
  forbidden: string[];
  answer?: string;
  confirm: ScenarioConfirm;
  generation?: ScenarioGeneration;
}

/** What `evaluateAgent` returns: JSON-safe, comparable across runs (`diffEvalReports`). */
export interface EvalReport {
  /** `"web-agents-eval/1"`. */
  format: "web-agents-eval/1";
  /** ISO time the evaluation started. */
  startedAt: string;
  durationMs: number;
  /** `@webmcp-agents/chat`'s version. */
  runtime: { version: string };
  /** Where it ran: the browser, and the device's capabilities as the engine's probe found them (on-device models only). */
  environment: { userAgent?: string; capabilities?: DeviceCapabilities };
  scenarios: EvalScenarioSummary[];
  results: EvalModelResult[];
  /** Passed runs over all runs, 0 to 1. */
  passRate: number;
}
