import type { EvalReport } from "./eval-report.js";

/**
 * A report read back from its JSON (a file `evaluateAgent`'s report was
 * saved to). Throws a `TypeError` that says what the text is instead: not
 * JSON, or JSON that is not a `web-agents-eval/1` report.
 */
export function parseEvalReport(text: string): EvalReport {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new TypeError("parseEvalReport: this is not JSON. Pick a report saved from the evals page or written by npm run eval.");
  }
  const report = value as Partial<EvalReport> | null;
  if (typeof report !== "object" || report === null || report.format !== "web-agents-eval/1" || !Array.isArray(report.results) || !Array.isArray(report.scenarios)) {
    throw new TypeError('parseEvalReport: this JSON is not an evaluation report (format "web-agents-eval/1" with results and scenarios).');
  }
  return report as EvalReport;
}
