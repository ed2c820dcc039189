import type { CatalogEntry } from "../../../models/catalog-schema.js";
import type { DeviceCapabilities } from "../../../models/device-capabilities.js";
import type { EngineHost } from "../../../worker/protocol.js";
import type { WebAgent } from "../../agent/web-agent.js";
import type { AgentAdapter } from "../../session/agent-adapter.js";
import type { AgentScenario, ScenarioGeneration } from "./agent-scenario.js";
import type { EvalModel, EvalModelResult, EvalReport, EvalScenarioResult } from "./eval-report.js";
import { errorOf } from "./error-of.js";
import { modelResult } from "./model-result.js";
import { runScenario } from "./run-scenario.js";
import { RUNTIME_VERSION } from "./runtime-version.js";
import { summarizeScenario } from "./summarize-scenario.js";

/** The on-device models `evaluateAgent` runs, each in a local adapter it makes (`createLocalAdapter`). */
export interface EvalModelsOptions {
  /** Catalog entries (`QWEN3_CATALOG`, `defineModel`, `testModelEntries`): each is downloaded if needed, loaded and run. */
  entries: readonly CatalogEntry[];
  /** Where model files come from, as `createLocalAdapter({ worker: { baseUrl } })`. Default `"https://huggingface.co"`. */
  baseUrl?: string;
  /** The engine, as `createLocalAdapter({ worker: { host } })`. Default: the engine worker. */
  host?: EngineHost | (() => Promise<EngineHost>);
  /** WASM threads, as `createLocalAdapter({ worker: { threads } })`. */
  threads?: number;
}

/** What `evaluateAgent` reports while it runs. */
export interface EvalProgress {
  model: EvalModel;
  scenario: string;
  /** 1-based. */
  run: number;
  runs: number;
  passed: boolean;
}

/** What `evaluateAgent` takes. */
export interface EvaluateAgentOptions {
  /** The agent a scenario runs when it names none. */
  agent?: WebAgent;
  /** From `defineAgentScenario`. At least one. */
  scenarios: readonly AgentScenario[];
  /** Adapters to run as they are (the cloud adapter, a fallback, a scripted one): with their own generation settings. */
  adapters?: readonly AgentAdapter[];
  /** On-device models, each with the scenarios' generation settings. At least one of `adapters` and `models`. */
  models?: EvalModelsOptions;
  /** A run still going after this long is stopped and fails with the code `timeout`. Default 120,000 ms. */
  timeoutMs?: number;
  /** Aborting stops the run in progress (it fails with the code `aborted`) and runs nothing more; the report holds the runs so far. */
  signal?: AbortSignal;
  /** Called after every run. */
  onProgress?: (progress: EvalProgress) => void;
}

const DEFAULT_TIMEOUT_MS = 120_000;

/**
 * Runs every scenario `runs` times on every adapter and model, in this page,
 * through the same session and tools a person's chat uses, and resolves to
 * a report: per model and scenario the passes out of the runs, why each
 * failure failed, the steps with tokens, time to first token and decode
 * speed, and the download size; with the runtime version, the models' ids
 * and revisions, engines and the device's capabilities, so two reports can
 * be compared (`diffEvalReports`). A model that cannot be set up is
 * reported with its error; nothing else rejects, except a `TypeError` for
 * options that are wrong.
 */
export async function evaluateAgent(options: EvaluateAgentOptions): Promise<EvalReport> {
  checkOptions(options);
  const startedAt = new Date();
  const started = performance.now();
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const results: EvalModelResult[] = [];
  let capabilities: DeviceCapabilities | undefined;

  const runAll = async (adapter: AgentAdapter, model: EvalModel, scenarios: readonly AgentScenario[], generation: ScenarioGeneration | undefined): Promise<EvalScenarioResult[]> => {
    const done: EvalScenarioResult[] = [];
    for (const scenario of scenarios) {
      const attempts = [];
      for (let run = 1; run <= scenario.runs && !options.signal?.aborted; run++) {
        const attempt = await runScenario(scenario, { adapter, agent: options.agent, timeoutMs, signal: options.signal });
        attempts.push(attempt);
        options.onProgress?.({ model, scenario: scenario.id, run, runs: scenario.runs, passed: attempt.passed });
      }
      done.push({ scenario: scenario.id, runs: attempts.length, passed: attempts.filter((attempt) => attempt.passed).length, ...(generation && { generation }), attempts });
    }
    return done;
  };

  for (const adapter of options.adapters ?? []) {
    if (options.signal?.aborted) break;
    const model = adapterModel(adapter);
    try {
      await adapter.prepare?.(options.signal);
    } catch (error) {
      results.push(modelResult(model, [], errorOf(error)));
      continue;
    }
    results.push(modelResult(model, await runAll(adapter, model, options.scenarios, undefined)));
  }

  if (options.models && !options.signal?.aborted) {
    const { evaluateModels } = await import("./evaluate-models.js");
    const found = await evaluateModels(options.models, options.scenarios, runAll, options.signal);
    capabilities = found.capabilities;
    results.push(...found.results);
  }

  const runs = results.reduce((total, result) => total + result.runs, 0);
  const passed = results.reduce((total, result) => total + result.passed, 0);
  return {
    format: "web-agents-eval/1",
    startedAt: startedAt.toISOString(),
    durationMs: Math.round(performance.now() - started),
    runtime: { version: RUNTIME_VERSION },
    environment: { ...(typeof navigator !== "undefined" && { userAgent: navigator.userAgent }), ...(capabilities && { capabilities }) },
    scenarios: options.scenarios.map((scenario) => summarizeScenario(scenario, options.agent)),
    results,
    passRate: runs === 0 ? 0 : passed / runs,
  };
}

/** The model behind an adapter: its selected `models()` choice, else the adapter itself. */
function adapterModel(adapter: AgentAdapter): EvalModel {
  const choice = adapter.models?.().find((candidate) => candidate.selected);
  return choice
    ? { id: choice.id, label: choice.label, adapter: adapter.id, ...(choice.bytes !== undefined && { bytes: choice.bytes }) }
    : { id: adapter.id, label: adapter.label, adapter: adapter.id };
}

function checkOptions(options: EvaluateAgentOptions) {
  if (typeof options !== "object" || options === null) throw new TypeError("evaluateAgent: pass { agent?, scenarios, adapters?, models? }.");
  if (!Array.isArray(options.scenarios) || options.scenarios.length === 0) {
    throw new TypeError("evaluateAgent: scenarios must be a non-empty list of scenarios from defineAgentScenario.");
  }
  options.scenarios.forEach((scenario, index) => {
    if (!Object.isFrozen(scenario) || typeof scenario.id !== "string" || !Array.isArray(scenario.calls)) {
      throw new TypeError(`evaluateAgent: scenarios[${index}] must come from defineAgentScenario.`);
    }
  });
  const ids = options.scenarios.map((scenario) => scenario.id);
  const twice = ids.find((id, index) => ids.indexOf(id) !== index);
  if (twice) throw new TypeError(`evaluateAgent: the scenario id "${twice}" is used twice; each needs its own.`);
  if (options.adapters !== undefined && (!Array.isArray(options.adapters) || options.adapters.some((adapter) => typeof adapter?.run !== "function"))) {
    throw new TypeError("evaluateAgent: adapters must be a list of AgentAdapters (createCloudAdapter(), createLocalAdapter(), …).");
  }
  if (options.models !== undefined && (!Array.isArray(options.models?.entries) || options.models.entries.length === 0)) {
    throw new TypeError("evaluateAgent: models.entries must be a non-empty list of catalog entries.");
  }
  if ((options.adapters?.length ?? 0) === 0 && options.models === undefined) {
    throw new TypeError("evaluateAgent: pass adapters, models, or both: there is nothing to evaluate.");
  }
  if (options.timeoutMs !== undefined && !(options.timeoutMs > 0)) throw new TypeError("evaluateAgent: timeoutMs must be a positive number of milliseconds.");
}
