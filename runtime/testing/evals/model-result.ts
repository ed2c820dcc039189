import type { EvalModel, EvalModelResult, EvalScenarioResult } from "./eval-report.js";

/** The median of `values`, or undefined for none. */
export function median(values: readonly number[]): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** One model's result: its scenarios' totals, and the medians of time to first token and decode speed over every reported step. */
export function modelResult(model: EvalModel, scenarios: EvalScenarioResult[], error?: { message: string; code?: string }): EvalModelResult {
  const steps = scenarios.flatMap((scenario) => scenario.attempts.flatMap((attempt) => attempt.steps));
  const ttft = median(steps.flatMap((step) => (step.timeToFirstTokenMs !== undefined ? [step.timeToFirstTokenMs] : [])));
  const decode = median(steps.flatMap((step) => (step.decodeTokensPerSecond !== undefined && step.outputTokens > 1 ? [step.decodeTokensPerSecond] : [])));
  return {
    model,
    runs: scenarios.reduce((total, scenario) => total + scenario.runs, 0),
    passed: scenarios.reduce((total, scenario) => total + scenario.passed, 0),
    scenarios,
    ...(ttft !== undefined && { medianTimeToFirstTokenMs: Math.round(ttft) }),
    ...(decode !== undefined && { medianDecodeTokensPerSecond: Math.round(decode * 10) / 10 }),
    ...(error && { error }),
  };
}
