/**
 * `@webmcp-agents/chat/testing`: scripted adapters for your own tests, the
 * catalog entries of the project's own test models (`testModelEntries`), and
 * evaluations of an agent on its own tools (`defineAgentScenario`,
 * `evaluateAgent`, the report's table and diff).
 *
 * The judge, the table's rows and the report's inner types stay inside:
 * `EvalReport` is the report, read as data.
 * @module
 */
export { createScriptedAdapter } from "./create-scripted-adapter.js";
export type { RecordedRequest, ScriptedAdapter, ScriptedAdapterOptions, ScriptedRun } from "./create-scripted-adapter.js";
export { testModelEntries } from "../../models/catalog-test-models.js";
export type { TestModelEntriesOptions } from "../../models/catalog-test-models.js";
export { defineAgentScenario } from "./evals/define-agent-scenario.js";
export type { AgentScenario, AgentScenarioConfig, ExpectedCall } from "./evals/agent-scenario.js";
export { evaluateAgent } from "./evals/evaluate-agent.js";
export type { EvalProgress, EvaluateAgentOptions } from "./evals/evaluate-agent.js";
export type { EvalReport } from "./evals/eval-report.js";
export { formatEvalTable, modelsBelow } from "./evals/eval-rows.js";
export { diffEvalReports } from "./evals/diff-eval-reports.js";
export type { EvalDiff } from "./evals/diff-eval-reports.js";
export { parseEvalReport } from "./evals/parse-eval-report.js";
export { publishEvalReport } from "./evals/publish-eval-report.js";
