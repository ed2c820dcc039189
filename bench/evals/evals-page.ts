// The evals page (bench/evals/index.html, served by npm start at /evals/):
// pick scenarios and models, run evaluateAgent in this page, see the table and
// the chart, save the report, compare two. With ?run=1 it runs at once and
// publishes the report for the headless runner (run-eval-cli.ts).
import type { CatalogEntry } from "@webmcp-agents/chat/runtime";
import { defineAgentScenario, evaluateAgent, parseEvalReport, publishEvalReport, type AgentScenario, type EvalReport } from "@webmcp-agents/chat/testing";
import { formatBytes } from "../../runtime/errors/format-bytes.js";
import { storeScenarios } from "../../examples/field-store/store-scenarios.js";
import { evalChartSvg } from "./eval-chart-svg.js";
import { escapeHtml } from "./escape-html.js";
import { evalDiffHtml, evalTableHtml } from "./render-eval-tables.js";

interface ModelsFile {
  entries: CatalogEntry[];
  checked: string[];
  baseUrl: string;
}

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const params = new URLSearchParams(location.search);
const status = $("status");
const log = (line: string) => {
  $("log").textContent += `${new Date().toISOString().slice(11, 19)} ${line}\n`;
};
let report: EvalReport | undefined;

/** Where a run stands, on the body for a test or runner that waits (wait-for-eval-report.ts reads it when the report is late). */
function progressed(state: "ready" | "running" | "done" | "failed", done?: number, total?: number) {
  document.body.dataset.evalState = state;
  if (total !== undefined) document.body.dataset.evalRuns = `${done} of ${total}`;
}
let controller: AbortController | undefined;

function checkbox(name: string, value: string, text: string, detail: string, checked: boolean): string {
  const id = `${name}-${value}`;
  return `<label for="${escapeHtml(id)}"><input type="checkbox" name="${name}" id="${escapeHtml(id)}" value="${escapeHtml(value)}"${checked ? " checked" : ""} /> <span>${escapeHtml(text)} <small>${escapeHtml(detail)}</small></span></label>`;
}

function listScenarios() {
  const wanted = params.get("scenarios")?.split(",");
  $("scenarios").innerHTML = storeScenarios.map((scenario) => checkbox("scenario", scenario.id, scenario.id, scenario.title, !wanted || wanted.includes(scenario.id))).join("");
}

async function listModels(): Promise<ModelsFile> {
  const file = (await (await fetch("./models.json")).json()) as ModelsFile;
  const wanted = params.get("models")?.split(",");
  $("models").innerHTML = file.entries
    .map((entry) => checkbox("model", entry.id, entry.label, `${formatBytes(entry.variants[0]!.bytes)} · ${entry.brief}`, wanted ? wanted.includes(entry.id) : file.checked.includes(entry.id)))
    .join("");
  return file;
}

const picked = (name: string) => [...document.querySelectorAll<HTMLInputElement>(`input[name="${name}"]:checked`)].map((input) => input.value);

function withRuns(scenario: AgentScenario, runs: number): AgentScenario {
  return defineAgentScenario({ ...scenario, forbidden: [...scenario.forbidden], calls: [...scenario.calls], messages: [...scenario.messages], runs });
}

function show(next: EvalReport) {
  report = next;
  $("results").innerHTML = evalTableHtml(next);
  $("chart").innerHTML = evalChartSvg(next);
  $<HTMLButtonElement>("download").disabled = false;
}

async function run(models: ModelsFile) {
  const scenarioIds = picked("scenario");
  const modelIds = picked("model");
  if (scenarioIds.length === 0 || modelIds.length === 0) {
    status.textContent = "Pick at least one scenario and one model.";
    return;
  }
  const runs = Math.max(1, Math.min(50, Number($<HTMLInputElement>("runs").value) || 1));
  const scenarios = storeScenarios.filter((scenario) => scenarioIds.includes(scenario.id)).map((scenario) => withRuns(scenario, runs));
  const entries = models.entries.filter((entry) => modelIds.includes(entry.id));
  controller = new AbortController();
  $<HTMLButtonElement>("run").disabled = true;
  $<HTMLButtonElement>("stop").disabled = false;
  const total = entries.length * scenarios.length * runs;
  let done = 0;
  status.textContent = `Running ${total} runs…`;
  progressed("running", 0, total);
  log(`run: ${scenarios.map((scenario) => scenario.id).join(", ")} on ${entries.map((entry) => entry.id).join(", ")}, ${runs} each`);
  try {
    const result = await evaluateAgent({
      scenarios,
      models: { entries, baseUrl: models.baseUrl },
      signal: controller.signal,
      onProgress: (progress) => {
        done++;
        progressed("running", done, total);
        status.textContent = `${done} of ${total} runs done.`;
        log(`${progress.model.id} ${progress.scenario} run ${progress.run}/${progress.runs}: ${progress.passed ? "passed" : "failed"}`);
      },
    });
    show(result);
    status.textContent = `Done: ${Math.round(result.passRate * 100)} % of ${done} runs passed.`;
    for (const model of result.results) if (model.error) log(`${model.model.id}: ${model.error.message}`);
    progressed("done", done, total);
    publishEvalReport(result);
  } catch (error) {
    progressed("failed", done, total);
    status.textContent = `The evaluation failed: ${error instanceof Error ? error.message : String(error)}`;
    log(String(error));
  } finally {
    $<HTMLButtonElement>("run").disabled = false;
    $<HTMLButtonElement>("stop").disabled = true;
  }
}

function download() {
  if (!report) return;
  const link = document.createElement("a");
  link.href = URL.createObjectURL(new Blob([JSON.stringify(report, null, 2)], { type: "application/json" }));
  link.download = `eval-report-${report.startedAt.replace(/[:.]/g, "-")}.json`;
  link.click();
  URL.revokeObjectURL(link.href);
}

async function compare() {
  const files = [$<HTMLInputElement>("report-a").files?.[0], $<HTMLInputElement>("report-b").files?.[0]];
  if (!files[0] || !files[1]) return;
  try {
    const [before, after] = await Promise.all(files.map(async (file) => parseEvalReport(await file!.text())));
    $("diff").innerHTML = evalDiffHtml(before!, after!);
  } catch (error) {
    $("diff").innerHTML = "";
    status.textContent = error instanceof Error ? error.message : String(error);
  }
}

listScenarios();
const models = await listModels();
$("form").addEventListener("submit", (event) => {
  event.preventDefault();
  void run(models);
});
$("stop").addEventListener("click", () => controller?.abort());
$("download").addEventListener("click", download);
$("report-a").addEventListener("change", () => void compare());
$("report-b").addEventListener("change", () => void compare());
if (params.get("runs")) $<HTMLInputElement>("runs").value = params.get("runs")!;
document.body.dataset.ready = "true";
progressed("ready");
if (params.get("run") === "1") void run(models);
