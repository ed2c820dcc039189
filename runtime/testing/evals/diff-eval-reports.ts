import type { EvalModelResult, EvalReport } from "./eval-report.js";

/** One model on one scenario in two reports. */
export interface EvalDiffRow {
  model: string;
  scenario: string;
  /** Pass rate 0 to 1 in each report; undefined where that report has no such row. */
  before?: number;
  after?: number;
  /** `after - before`, where both are there. */
  change?: number;
}

/** What differs between two reports: the pass rates, and what was run on (runtime, models, engines, device, settings). */
export interface EvalDiff {
  rows: EvalDiffRow[];
  /** Each setting that differs, in words: `"runtime version: 0.1.0 -> 0.2.0"`. */
  changes: string[];
}

const rate = (passed: number, runs: number) => (runs === 0 ? 0 : passed / runs);

function rowsOf(report: EvalReport): Map<string, { model: string; scenario: string; rate: number }> {
  const rows = new Map<string, { model: string; scenario: string; rate: number }>();
  for (const result of report.results) {
    for (const entry of result.scenarios) rows.set(`${result.model.id}\u0000${entry.scenario}`, { model: result.model.id, scenario: entry.scenario, rate: rate(entry.passed, entry.runs) });
    rows.set(`${result.model.id}\u0000all`, { model: result.model.id, scenario: "all", rate: rate(result.passed, result.runs) });
  }
  return rows;
}

const show = (value: unknown) => (value === undefined ? "none" : typeof value === "string" ? value : JSON.stringify(value));

function compare(changes: string[], what: string, before: unknown, after: unknown) {
  if (show(before) !== show(after)) changes.push(`${what}: ${show(before)} -> ${show(after)}`);
}

function modelSettings(result: EvalModelResult) {
  const { revision, engine, device, dtype, bytes } = result.model;
  return { revision, engine, device, dtype, bytes };
}

/**
 * Compares two reports (`before`, then `after`): a row per model and
 * scenario found in either, with both pass rates and the change, and the
 * settings that differ (runtime version, each model's revision, engine,
 * device, dtype, size, the device's capabilities, each scenario's runs and
 * generation settings), so a change in pass rate can be read against what
 * changed.
 */
export function diffEvalReports(before: EvalReport, after: EvalReport): EvalDiff {
  const a = rowsOf(before);
  const b = rowsOf(after);
  const rows: EvalDiffRow[] = [];
  for (const key of new Set([...a.keys(), ...b.keys()])) {
    const left = a.get(key);
    const right = b.get(key);
    const { model, scenario } = (left ?? right)!;
    rows.push({ model, scenario, ...(left && { before: left.rate }), ...(right && { after: right.rate }), ...(left && right && { change: right.rate - left.rate }) });
  }
  const changes: string[] = [];
  compare(changes, "runtime version", before.runtime.version, after.runtime.version);
  compare(changes, "browser", before.environment.userAgent, after.environment.userAgent);
  compare(changes, "device capabilities", before.environment.capabilities, after.environment.capabilities);
  const models = new Map(after.results.map((result) => [result.model.id, result]));
  for (const result of before.results) {
    const other = models.get(result.model.id);
    if (!other) changes.push(`model ${result.model.id}: only in the first report`);
    else for (const [field, value] of Object.entries(modelSettings(result))) compare(changes, `model ${result.model.id} ${field}`, value, modelSettings(other)[field as keyof ReturnType<typeof modelSettings>]);
  }
  for (const result of after.results) if (!before.results.some((entry) => entry.model.id === result.model.id)) changes.push(`model ${result.model.id}: only in the second report`);
  const scenarios = new Map(after.scenarios.map((scenario) => [scenario.id, scenario]));
  for (const scenario of before.scenarios) {
    const other = scenarios.get(scenario.id);
    if (!other) continue;
    compare(changes, `scenario ${scenario.id} runs`, scenario.runs, other.runs);
    compare(changes, `scenario ${scenario.id} generation`, scenario.generation, other.generation);
  }
  return { rows, changes };
}
