import { diffEvalReports, type EvalReport } from "@webmcp-agents/chat/testing";
import { evalRows } from "../../runtime/testing/evals/eval-rows.js";
import { escapeHtml } from "./escape-html.js";

const percent = (rate: number | undefined) => (rate === undefined ? "-" : `${Math.round(rate * 100)} %`);

/** The report's table: a row per model and scenario, then the model's total, with why runs failed. */
export function evalTableHtml(report: EvalReport): string {
  const rows = evalRows(report).map((row) => {
    const verdict = row.passRate === 1 ? "pass" : "fail";
    return (
      `<tr${row.scenario === "all" ? ' class="total"' : ""} data-model="${escapeHtml(row.model)}" data-scenario="${escapeHtml(row.scenario)}">` +
      `<td>${escapeHtml(row.model)}</td><td class="number">${escapeHtml(row.size)}</td><td>${escapeHtml(row.scenario)}</td>` +
      `<td class="number ${verdict}">${escapeHtml(row.passed)} (${percent(row.passRate)})</td>` +
      `<td class="number">${escapeHtml(row.ttft)}</td><td class="number">${escapeHtml(row.decode)}</td><td class="why">${escapeHtml(row.failures) || "-"}</td></tr>`
    );
  });
  const settings = report.results
    .map((result) => [result.model.label, result.model.engine, result.model.device, result.model.dtype, result.model.revision].filter(Boolean).join(", "))
    .join("; ");
  return [
    `<table id="results-table"><caption>Runtime ${escapeHtml(report.runtime.version)}, ${report.results.length} models, ${Math.round(report.passRate * 100)} % of runs passed, ${(report.durationMs / 1000).toFixed(1)} s</caption>`,
    `<thead><tr><th scope="col">Model</th><th scope="col">Download</th><th scope="col">Scenario</th><th scope="col">Passed</th><th scope="col">TTFT (median)</th><th scope="col">Decode (median)</th><th scope="col">Why it failed</th></tr></thead>`,
    `<tbody>${rows.join("")}</tbody></table>`,
    `<p class="note">Ran on: ${escapeHtml(settings)}.</p>`,
  ].join("");
}

/** Two reports side by side: each pass rate before and after, and the settings that differ. */
export function evalDiffHtml(before: EvalReport, after: EvalReport): string {
  const diff = diffEvalReports(before, after);
  const rows = diff.rows.map((row) => {
    const change = row.change === undefined ? "-" : `${row.change > 0 ? "+" : ""}${Math.round(row.change * 100)} points`;
    const tone = row.change === undefined || row.change === 0 ? "" : row.change > 0 ? ' class="number pass"' : ' class="number fail"';
    return `<tr><td>${escapeHtml(row.model)}</td><td>${escapeHtml(row.scenario)}</td><td class="number">${percent(row.before)}</td><td class="number">${percent(row.after)}</td><td${tone || ' class="number"'}>${change}</td></tr>`;
  });
  const changes = diff.changes.length === 0 ? "<li>Nothing: same runtime, models, engines, device and settings.</li>" : diff.changes.map((change) => `<li>${escapeHtml(change)}</li>`).join("");
  return [
    `<table id="diff-table"><caption>Pass rates: ${escapeHtml(before.startedAt)} against ${escapeHtml(after.startedAt)}</caption>`,
    `<thead><tr><th scope="col">Model</th><th scope="col">Scenario</th><th scope="col">First</th><th scope="col">Second</th><th scope="col">Change</th></tr></thead>`,
    `<tbody>${rows.join("")}</tbody></table>`,
    `<h3>What differed</h3><ul id="diff-changes">${changes}</ul>`,
  ].join("");
}
