import { formatBytes } from "../../errors/format-bytes.js";
import type { EvalModelResult, EvalReport } from "./eval-report.js";
import { modelResult } from "./model-result.js";

/** One line of the report's table: a model on one scenario, or (scenario `"all"`) on every one. */
export interface EvalRow {
  model: string;
  size: string;
  scenario: string;
  /** `"3/3"`. */
  passed: string;
  passRate: number;
  /** Median over the row's steps, where reported: `"182 ms"`, else `"-"`. */
  ttft: string;
  decode: string;
  /** The failures' kinds with their counts (`"wrong-tool ×3"`), and the first failure's sentence. */
  failures: string;
}

/** The medians as cells: `"182 ms"`, `"12.5 tok/s"`, `"-"` where none was reported. */
const speedCells = (result: Pick<EvalModelResult, "medianTimeToFirstTokenMs" | "medianDecodeTokensPerSecond">) => ({
  ttft: result.medianTimeToFirstTokenMs !== undefined ? `${result.medianTimeToFirstTokenMs} ms` : "-",
  decode: result.medianDecodeTokensPerSecond !== undefined ? `${result.medianDecodeTokensPerSecond} tok/s` : "-",
});

const rate = (passed: number, runs: number) => (runs === 0 ? 0 : passed / runs);

function reasons(result: EvalModelResult, scenario?: string): string {
  if (result.error) return `setup failed${result.error.code ? ` (${result.error.code})` : ""}: ${result.error.message}`;
  const failures = result.scenarios.filter((entry) => scenario === undefined || entry.scenario === scenario).flatMap((entry) => entry.attempts.flatMap((attempt) => attempt.failures));
  if (failures.length === 0) return "";
  const counts = new Map<string, number>();
  for (const failure of failures) counts.set(failure.kind, (counts.get(failure.kind) ?? 0) + 1);
  return `${[...counts].map(([kind, count]) => `${kind} ×${count}`).join(", ")}: ${failures[0]!.message}`;
}

/** The report as table rows: per model, a row per scenario, then its total. */
export function evalRows(report: EvalReport): EvalRow[] {
  const rows: EvalRow[] = [];
  for (const result of report.results) {
    const model = result.model.label;
    const size = result.model.bytes !== undefined ? formatBytes(result.model.bytes) : "-";
    for (const entry of result.scenarios) {
      const speeds = modelResult(result.model, [entry]);
      rows.push({ model, size, scenario: entry.scenario, passed: `${entry.passed}/${entry.runs}`, passRate: rate(entry.passed, entry.runs), ...speedCells(speeds), failures: reasons(result, entry.scenario) });
    }
    rows.push({ model, size, scenario: "all", passed: `${result.passed}/${result.runs}`, passRate: rate(result.passed, result.runs), ...speedCells(result), failures: reasons(result) });
  }
  return rows;
}

const COLUMNS: [keyof EvalRow, string][] = [
  ["model", "model"],
  ["size", "download"],
  ["scenario", "scenario"],
  ["passed", "passed"],
  ["ttft", "TTFT"],
  ["decode", "decode"],
  ["failures", "why it failed"],
];

/** The table as plain text, columns padded, for a terminal (`npm run eval`); long failure sentences cut at `width` characters a line. */
export function formatEvalTable(report: EvalReport, width = 200): string {
  const rows = evalRows(report).map((row) => COLUMNS.map(([key]) => String(row[key])));
  const header = COLUMNS.map(([, title]) => title);
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => (column === header.length - 1 ? 0 : row[column]!.length))));
  const line = (cells: string[]) => {
    const text = cells.map((cell, column) => (column === cells.length - 1 ? cell : cell.padEnd(widths[column]!))).join("  ");
    return text.length > width ? `${text.slice(0, width - 1)}…` : text;
  };
  return [line(header), line(widths.map((size) => "-".repeat(size))), ...rows.map(line)].join("\n");
}

/** The models whose pass rate is under `threshold` (0 to 1): what `npm run eval --threshold` exits non-zero for. */
export function modelsBelow(report: EvalReport, threshold: number): EvalModelResult[] {
  return report.results.filter((result) => result.error !== undefined || rate(result.passed, result.runs) < threshold);
}
