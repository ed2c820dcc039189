/**
 * The bench page's controls. `window.bench` is what `npm run bench` drives:
 * `listModels()`, `run(config)`.
 */
import { probeCapabilities } from "../worker/capability-probe.js";
import { DEFAULT_BENCH_MODEL, type BenchConfig, type BenchModel, type BenchResult } from "./bench-types.js";
import { resultChartSvg } from "./chart-svg.js";
import { checkReachable, listModels, runBench, webLlmUnavailable } from "./run-bench-page.js";
import { ratioLines, resultRows } from "./summarize.js";
import type { ZeroCostConfig } from "./zero-cost/run-zero-cost-bench.js";
import type { CpuTimes } from "./zero-cost/zero-cost-result.js";

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const logBox = $<HTMLDivElement>("log");
const log = (line: string) => {
  logBox.textContent += `${line}\n`;
  console.log(`[bench] ${line}`);
};


let models: BenchModel[] = [];
let last: BenchResult | undefined;

function showResult(result: BenchResult) {
  const rows = resultRows(result);
  const table = document.createElement("table");
  rows.forEach((row, index) => {
    const tr = table.insertRow();
    for (const cell of row) {
      const element = document.createElement(index === 0 ? "th" : "td");
      element.textContent = cell;
      tr.append(element);
    }
  });
  const results = $("results");
  results.replaceChildren(table);
  // "-" where a ratio has no pairs: one run has no warm load.
  const ratios = ratioLines(result).join("; ");
  const caption = document.createElement("p");
  const threads = `WASM threads: ${result.threadsRequested} asked for, the page ${result.environment.crossOriginIsolated ? "is" : "is not"} cross-origin isolated (${result.environment.cores} cores)`;
  caption.textContent = `${threads}. ${ratios}. Medians, (min-max); ratios are medians of runtime/raw pairs measured in the same round; best: each path's best generation against the other's. First TTFT: the first generation after each load; TTFT and decode: the later ones. Long tasks: main-thread tasks over 50 ms during generation.`;
  results.append(caption);
  const scripts = Object.entries(result.summary).flatMap(([path, s]) => s!.longTaskScripts.map((script) => `${path}: ${script}`));
  if (scripts.length) {
    const list = document.createElement("ul");
    for (const script of scripts) list.append(Object.assign(document.createElement("li"), { textContent: script }));
    results.append(Object.assign(document.createElement("p"), { textContent: "Long frames during generation, by what ran in them:" }), list);
  }
  $("chart").innerHTML = resultChartSvg(result);
}

async function updateAvailability() {
  const capabilities = await probeCapabilities();
  const engine = $<HTMLSelectElement>("engine").value;
  const device = $<HTMLSelectElement>("device").value;
  const model = models.find((m) => m.id === $<HTMLSelectElement>("model").value);
  const reasons: string[] = [];
  if (engine === "web-llm") reasons.push(webLlmUnavailable(capabilities));
  if (device === "webgpu" && !capabilities.webgpu) reasons.push("No WebGPU adapter in this browser.");
  if (device === "webgpu" && capabilities.fallbackAdapter) reasons.push("WebGPU here is a software adapter (SwiftShader): correct but slow.");
  if (model?.unavailable) reasons.push(`${model.id}: ${model.unavailable}`);
  if (model && !model.devices.includes(device as "wasm")) reasons.push(`${model.id} is a ${model.devices.join("/")} variant.`);
  $("availability").textContent = reasons.join(" ");
  $<HTMLButtonElement>("run").disabled = engine === "web-llm" || (device === "webgpu" && !capabilities.webgpu);
}

async function start() {
  models = await listModels();
  const select = $<HTMLSelectElement>("model");
  for (const model of models) select.add(new Option(model.label, model.id));
  // The README's model: the tiny test model's visible-text variant, where it is built (the list starts with whatever sorts first).
  select.value = models.find((model) => model.id === DEFAULT_BENCH_MODEL)?.id ?? select.value;
  for (const id of ["model", "engine", "device"]) $(id).addEventListener("change", () => void updateAvailability());
  void checkReachable(models).then(updateAvailability);
  await updateAvailability();

  $<HTMLFormElement>("form").addEventListener("submit", (event) => {
    event.preventDefault();
    const bandwidth = Number($<HTMLInputElement>("bandwidth").value);
    const threads = Number($<HTMLInputElement>("threads").value);
    const config: BenchConfig = {
      model: select.value,
      engine: $<HTMLSelectElement>("engine").value as BenchConfig["engine"],
      device: $<HTMLSelectElement>("device").value as BenchConfig["device"],
      promptTokens: Number($<HTMLInputElement>("prompt").value),
      outputTokens: Number($<HTMLInputElement>("output").value),
      runs: Number($<HTMLInputElement>("runs").value),
      generations: Number($<HTMLInputElement>("generations").value),
      ...(bandwidth > 0 && { bandwidthGBs: bandwidth }),
      ...(threads >= 1 && { threads }),
    };
    $<HTMLButtonElement>("run").disabled = true;
    runBench(config, log).then(
      (result) => {
        last = result;
        showResult(result);
        $<HTMLButtonElement>("export").disabled = false;
      },
      (error: unknown) => log(`failed: ${error instanceof Error ? error.message : String(error)}`),
    ).finally(() => void updateAvailability());
  });
  $("export").addEventListener("click", () => {
    if (!last) return;
    const link = document.createElement("a");
    link.href = URL.createObjectURL(new Blob([JSON.stringify(last, null, 2)], { type: "application/json" }));
    link.download = `bench-${last.model.id.replace(/\W+/g, "-")}-${last.config.device}.json`;
    link.click();
  });
}

/** The zero-cost path (bench/zero-cost/), loaded when asked for; DevTools' CPU metrics come from `npm run bench` (`benchCpuTimes`). */
async function zeroCost(config?: Partial<ZeroCostConfig>) {
  const { runZeroCostBench, DEFAULT_ZERO_COST } = await import("./zero-cost/run-zero-cost-bench.js");
  const cpuTimes = (window as unknown as { benchCpuTimes?: () => Promise<CpuTimes> }).benchCpuTimes;
  return runZeroCostBench({ ...DEFAULT_ZERO_COST, ...config }, log, cpuTimes);
}

(window as unknown as { bench: unknown }).bench = { listModels, run: (config: BenchConfig) => runBench(config, log), show: showResult, zeroCost };
void start().then(() => (document.body.dataset.ready = "true"));
