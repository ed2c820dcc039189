/**
 * `@webmcp-agents/chat/testing`: scripted adapters for your own tests, the
 * catalog entries of the project's own test models (`testModelEntries`), and
 * evaluations of an agent on its own tools (`defineAgentScenario`,
 * `evaluateAgent`, the report's table and diff).
 * @module
 */
export { createScriptedAdapter } from "./create-scripted-adapter.js";
export { testModelEntries } from "../../models/catalog-test-models.js";
export type { TestModelEntriesOptions } from "../../models/catalog-test-models.js";
export type {
  RecordedRequest,
  ScriptedAdapter,
  ScriptedAdapterOptions,
  ScriptedRun,
} from "./create-scripted-adapter.js";
export { defineAgentScenario } from "./evals/define-agent-scenario.js";
export type { AgentScenario, AgentScenarioConfig, ExpectedCall, ScenarioConfirm, ScenarioGeneration } from "./evals/agent-scenario.js";
export { evaluateAgent } from "./evals/evaluate-agent.js";
export type { EvalModelsOptions, EvalProgress, EvaluateAgentOptions } from "./evals/evaluate-agent.js";
export { judgeScenarioRun, matchesCall, matchesPartially } from "./evals/judge-scenario-run.js";
export type { ObservedRun } from "./evals/judge-scenario-run.js";
export { evalRows, formatEvalTable, modelsBelow } from "./evals/eval-rows.js";
export type { EvalRow } from "./evals/eval-rows.js";
export { diffEvalReports } from "./evals/diff-eval-reports.js";
export type { EvalDiff, EvalDiffRow } from "./evals/diff-eval-reports.js";
export { parseEvalReport } from "./evals/parse-eval-report.js";
export { EVAL_REPORT_GLOBAL, publishEvalReport } from "./evals/publish-eval-report.js";
export { RUNTIME_VERSION } from "./evals/runtime-version.js";
/** The size formatter the report's table writes download sizes with (`"764 MB"`), for pages that show a report. */
export { formatBytes } from "../errors/format-bytes.js";
export type {
  EvalCall,
  EvalFailure,
  EvalFailureKind,
  EvalModel,
  EvalModelResult,
  EvalReport,
  EvalRun,
  EvalScenarioResult,
  EvalScenarioSummary,
  EvalStep,
} from "./evals/eval-report.js";
