import type { EvalReport } from "./eval-report.js";

/** Where {@link publishEvalReport} puts the report on the page, for a headless runner to read. */
export const EVAL_REPORT_GLOBAL = "__webAgentsEvalReport";

/**
 * Hands a finished report to a headless runner (`npm run eval -- --url …`,
 * or a Playwright script of your own): sets `window.__webAgentsEvalReport`
 * and then `<html data-web-agents-eval="done">`, the attribute a runner
 * waits for. Call it once `evaluateAgent` has resolved.
 */
export function publishEvalReport(report: EvalReport): void {
  (globalThis as Record<string, unknown>)[EVAL_REPORT_GLOBAL] = report;
  if (typeof document !== "undefined") document.documentElement.dataset.webAgentsEval = "done";
}
